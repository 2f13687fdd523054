//! Typed errors of the shard format. Every reader returns these; none of them panics on bad bytes.

use thiserror::Error;

/// A payload that does not follow the v1 layout.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FormatError {
    #[error("payload truncated while reading {what}")]
    Truncated { what: &'static str },
    #[error("invalid UTF-8 in {what}")]
    InvalidUtf8 { what: &'static str },
    #[error("invalid {what}: {detail}")]
    Invalid {
        what: &'static str,
        detail: &'static str,
    },
}

/// A shard file that cannot be used: wrong envelope, corrupt bytes or an invalid payload.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ShardError {
    #[error("not an aidocs shard (bad magic bytes)")]
    BadMagic,
    #[error("shard format version {found} is not supported (this reader supports {supported})")]
    UnsupportedVersion { found: u16, supported: u16 },
    #[error("expected a {expected} shard, found a {found} shard")]
    WrongKind {
        expected: &'static str,
        found: &'static str,
    },
    #[error("unknown shard kind byte {0}")]
    UnknownKind(u8),
    #[error("unknown payload codec byte {0}")]
    UnknownCodec(u8),
    #[error("shard length mismatch: header says {declared} payload bytes, file has {actual}")]
    LengthMismatch { declared: u64, actual: u64 },
    #[error("checksum mismatch: header says {expected:08x}, payload hashes to {actual:08x}")]
    ChecksumMismatch { expected: u32, actual: u32 },
    #[error("payload does not inflate: {0}")]
    Inflate(&'static str),
    #[error("inflated payload is {actual} bytes, header says {declared}")]
    InflatedLengthMismatch { declared: u64, actual: u64 },
    #[error("payload larger than the {limit}-byte limit")]
    TooLarge { limit: u64 },
    #[error(transparent)]
    Format(#[from] FormatError),
}

impl ShardError {
    /// A stable machine-readable code, the same in the CLI and in the browser.
    pub fn code(&self) -> &'static str {
        match self {
            ShardError::BadMagic => "bad_magic",
            ShardError::UnsupportedVersion { .. } => "unsupported_version",
            ShardError::WrongKind { .. } => "wrong_kind",
            ShardError::UnknownKind(_) => "unknown_kind",
            ShardError::UnknownCodec(_) => "unknown_codec",
            ShardError::LengthMismatch { .. } => "length_mismatch",
            ShardError::ChecksumMismatch { .. } => "checksum_mismatch",
            ShardError::Inflate(_) => "inflate_failed",
            ShardError::InflatedLengthMismatch { .. } => "length_mismatch",
            ShardError::TooLarge { .. } => "too_large",
            ShardError::Format(_) => "invalid_payload",
        }
    }
}

/// A payload that breaks the layout: `what` was read, `detail` says how it is wrong.
pub(crate) fn invalid(what: &'static str, detail: &'static str) -> ShardError {
    ShardError::Format(FormatError::Invalid { what, detail })
}
