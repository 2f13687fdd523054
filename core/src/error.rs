//! Typed errors of the shard format. Every reader returns these; none of them panics on bad bytes.

use crate::text::{Message, Part};
use std::fmt;

/// A payload that does not follow the v1 layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    Truncated {
        what: &'static str,
    },
    InvalidUtf8 {
        what: &'static str,
    },
    Invalid {
        what: &'static str,
        detail: &'static str,
    },
}

/// A shard file that cannot be used: wrong envelope, corrupt bytes or an invalid payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardError {
    BadMagic,
    UnsupportedVersion {
        found: u16,
        supported: u16,
    },
    WrongKind {
        expected: &'static str,
        found: &'static str,
    },
    UnknownKind(u8),
    UnknownCodec(u8),
    LengthMismatch {
        declared: u64,
        actual: u64,
    },
    ChecksumMismatch {
        expected: u32,
        actual: u32,
    },
    Inflate(&'static str),
    InflatedLengthMismatch {
        declared: u64,
        actual: u64,
    },
    TooLarge {
        limit: u64,
    },
    Format(FormatError),
}

impl From<FormatError> for ShardError {
    fn from(e: FormatError) -> Self {
        ShardError::Format(e)
    }
}

impl Message for FormatError {
    fn write_message(&self, out: &mut String) {
        let parts: &[Part] = match *self {
            FormatError::Truncated { what } => {
                &["payload truncated while reading ".into(), what.into()]
            }
            FormatError::InvalidUtf8 { what } => &["invalid UTF-8 in ".into(), what.into()],
            FormatError::Invalid { what, detail } => {
                &["invalid ".into(), what.into(), ": ".into(), detail.into()]
            }
        };
        crate::text::push_parts(out, parts);
    }
}

impl Message for ShardError {
    fn write_message(&self, out: &mut String) {
        let parts: &[Part] = match *self {
            ShardError::BadMagic => &["not an aidocs shard (bad magic bytes)".into()],
            ShardError::UnsupportedVersion { found, supported } => &[
                "shard format version ".into(),
                found.into(),
                " is not supported (this reader supports ".into(),
                supported.into(),
                ")".into(),
            ],
            ShardError::WrongKind { expected, found } => &[
                "expected a ".into(),
                expected.into(),
                " shard, found a ".into(),
                found.into(),
                " shard".into(),
            ],
            ShardError::UnknownKind(b) => &["unknown shard kind byte ".into(), b.into()],
            ShardError::UnknownCodec(b) => &["unknown payload codec byte ".into(), b.into()],
            ShardError::LengthMismatch { declared, actual } => &[
                "shard length mismatch: header says ".into(),
                declared.into(),
                " payload bytes, file has ".into(),
                actual.into(),
            ],
            ShardError::ChecksumMismatch { expected, actual } => &[
                "checksum mismatch: header says ".into(),
                Part::Hex8(expected.into()),
                ", payload hashes to ".into(),
                Part::Hex8(actual.into()),
            ],
            ShardError::Inflate(why) => &["payload does not inflate: ".into(), why.into()],
            ShardError::InflatedLengthMismatch { declared, actual } => &[
                "inflated payload is ".into(),
                actual.into(),
                " bytes, header says ".into(),
                declared.into(),
            ],
            ShardError::TooLarge { limit } => &[
                "payload larger than the ".into(),
                limit.into(),
                "-byte limit".into(),
            ],
            ShardError::Format(ref e) => return e.write_message(out),
        };
        crate::text::push_parts(out, parts);
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::display(self, f)
    }
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::display(self, f)
    }
}

impl std::error::Error for FormatError {}

impl std::error::Error for ShardError {
    /// As `thiserror`'s `transparent` was: the payload error is this error, not its cause.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ShardError::Format(e) => e.source(),
            _ => None,
        }
    }
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
