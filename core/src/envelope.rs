//! The versioned envelope around every shard file.
//!
//! ```text
//! offset size  field
//! 0      4     magic  b"AIDX"
//! 4      2     format version (u16 LE), currently 11 (readers accept 1 to 11)
//! 6      1     shard kind (manifest = 1, terms = 2, meta = 3, vector directory = 4, vectors = 5)
//! 7      1     codec (0 = stored, 1 = zlib, which a browser inflates with DecompressionStream("deflate"))
//! 8      4     inflated payload length (u32 LE)
//! 12     4     payload length in this file (u32 LE)
//! 16     4     CRC-32 (IEEE) of the payload bytes as stored
//! 20     ...   payload
//! ```
//! The CRC lets a reader reject a damaged file before inflating it; file names carry a content hash
//! so a new build never overwrites a file an old manifest still points at.

use crate::error::ShardError;

pub const MAGIC: [u8; 4] = *b"AIDX";
/// The shard format version this code writes. Version 2 adds the manifest's optional vector reference
/// and the vector shard kinds; version 3 the static query encoder's term rows; version 4 stores vector
/// shards as 4-bit residuals (half the bytes of a vector query); version 5 the vector directory's
/// centroids too, and names its partitions by one prefix; version 6 adds the typo-tolerance files (the
/// manifest's optional typo directory reference); version 7 the position shards of quoted phrases (the
/// manifest's optional positions reference); version 8 the language partitions (`manifest.bin` of a
/// multilingual site is a partition table naming one index manifest per language); version 9 each
/// page's section text (a text file per page, named by its metadata, read only for evidence); version
/// 10 names every shard an edit can change by its own bytes (position shards beside their term
/// shards, typo shards in their directory), so an edit renames only what it changed; version 11 may
/// cut the manifest's term and metadata shard tables into directory pages, fetched as a query needs
/// them (a large site's first fetch stays small). Each version's
/// index is the next one's without the new parts or with the older encoding, so all are read.
pub const FORMAT_VERSION: u16 = 12;
/// The oldest version this code reads.
pub const MIN_FORMAT_VERSION: u16 = 1;
pub const HEADER_LEN: usize = 20;
/// Upper bound on an inflated payload: protects readers from decompression bombs.
pub const MAX_PAYLOAD: u64 = 256 * 1024 * 1024;

/// What a shard file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardKind {
    Manifest = 1,
    Terms = 2,
    Meta = 3,
    VectorDir = 4,
    Vectors = 5,
    TermRows = 6,
    Projection = 7,
    TypoDir = 8,
    Typos = 9,
    Positions = 10,
    /// `manifest.bin` of a multilingual site: its language partitions (format v8).
    Partitions = 11,
    /// One page's section text, fetched for evidence only (format v9).
    Text = 12,
    /// A page of the manifest's term or metadata shard table (format v11).
    Directory = 13,
}

impl ShardKind {
    pub fn from_byte(b: u8) -> Result<Self, ShardError> {
        match b {
            1 => Ok(ShardKind::Manifest),
            2 => Ok(ShardKind::Terms),
            3 => Ok(ShardKind::Meta),
            4 => Ok(ShardKind::VectorDir),
            5 => Ok(ShardKind::Vectors),
            6 => Ok(ShardKind::TermRows),
            7 => Ok(ShardKind::Projection),
            8 => Ok(ShardKind::TypoDir),
            9 => Ok(ShardKind::Typos),
            10 => Ok(ShardKind::Positions),
            11 => Ok(ShardKind::Partitions),
            12 => Ok(ShardKind::Text),
            13 => Ok(ShardKind::Directory),
            other => Err(ShardError::UnknownKind(other)),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            ShardKind::Manifest => "manifest",
            ShardKind::Terms => "terms",
            ShardKind::Meta => "meta",
            ShardKind::VectorDir => "vector directory",
            ShardKind::Vectors => "vectors",
            ShardKind::TermRows => "term rows",
            ShardKind::Projection => "projection",
            ShardKind::TypoDir => "typo directory",
            ShardKind::Typos => "typos",
            ShardKind::Positions => "positions",
            ShardKind::Partitions => "partition table",
            ShardKind::Text => "section text",
            ShardKind::Directory => "directory page",
        }
    }
}

/// The parsed fixed-size header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvelopeHeader {
    pub version: u16,
    pub kind: ShardKind,
    pub codec: u8,
    pub raw_len: u32,
    pub payload_len: u32,
    pub crc32: u32,
}

/// CRC-32 (IEEE 802.3, the zlib/PNG one) over a byte-at-a-time table: 1 KB in the wasm module.
const CRC32: crc::Crc<u32, crc::Table<1>> =
    crc::Crc::<u32, crc::Table<1>>::new(&crc::CRC_32_ISO_HDLC);

fn crc32(bytes: &[u8]) -> u32 {
    CRC32.checksum(bytes)
}

/// Wraps a payload: zlib-compressed at a fixed level, so the same payload always gives the same bytes.
pub fn seal(kind: ShardKind, payload: &[u8]) -> Vec<u8> {
    let compressed = miniz_oxide::deflate::compress_to_vec_zlib(payload, 9);
    let mut out = Vec::with_capacity(HEADER_LEN + compressed.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(kind as u8);
    out.push(1);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32(&compressed).to_le_bytes());
    out.extend_from_slice(&compressed);
    out
}

/// Checks magic, version, lengths and checksum; does not inflate. The browser calls this before handing
/// the payload to `DecompressionStream`.
pub fn read_header(file: &[u8]) -> Result<EnvelopeHeader, ShardError> {
    if file.len() < 4 || file[0..4] != MAGIC {
        return Err(ShardError::BadMagic);
    }
    if file.len() < HEADER_LEN {
        return Err(ShardError::LengthMismatch {
            declared: HEADER_LEN as u64,
            actual: file.len() as u64,
        });
    }
    let u32_at = |i: usize| u32::from_le_bytes([file[i], file[i + 1], file[i + 2], file[i + 3]]);
    let version = u16::from_le_bytes([file[4], file[5]]);
    if !(MIN_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(ShardError::UnsupportedVersion {
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    let kind = ShardKind::from_byte(file[6])?;
    let codec = file[7];
    if codec > 1 {
        return Err(ShardError::UnknownCodec(codec));
    }
    let header = EnvelopeHeader {
        version,
        kind,
        codec,
        raw_len: u32_at(8),
        payload_len: u32_at(12),
        crc32: u32_at(16),
    };
    let actual = (file.len() - HEADER_LEN) as u64;
    if header.payload_len as u64 != actual {
        return Err(ShardError::LengthMismatch {
            declared: header.payload_len as u64,
            actual,
        });
    }
    if header.raw_len as u64 > MAX_PAYLOAD {
        return Err(ShardError::TooLarge { limit: MAX_PAYLOAD });
    }
    let crc = crc32(&file[HEADER_LEN..]);
    if crc != header.crc32 {
        return Err(ShardError::ChecksumMismatch {
            expected: header.crc32,
            actual: crc,
        });
    }
    Ok(header)
}

/// Verifies the envelope, checks the kind, and returns the inflated payload.
pub fn open(file: &[u8], expected: ShardKind) -> Result<Vec<u8>, ShardError> {
    let header = check(file, expected)?;
    open_checked(file, &header)
}

/// The inflated payload of a `file` whose envelope [`check`] returned `header`.
pub fn open_checked(file: &[u8], header: &EnvelopeHeader) -> Result<Vec<u8>, ShardError> {
    let payload = &file[HEADER_LEN..];
    let raw = if header.codec == 0 {
        payload.to_vec()
    } else {
        inflate(payload, header.raw_len as usize)?
    };
    check_inflated(header, &raw)?;
    Ok(raw)
}

#[cfg(feature = "inflate")]
fn inflate(payload: &[u8], limit: usize) -> Result<Vec<u8>, ShardError> {
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(payload, limit)
        .map_err(|_| ShardError::Inflate("corrupt or truncated zlib stream"))
}

#[cfg(not(feature = "inflate"))]
fn inflate(_: &[u8], _: usize) -> Result<Vec<u8>, ShardError> {
    Err(ShardError::Inflate(
        "this build does not inflate: inflate the payload first (DecompressionStream) and hand it in",
    ))
}

/// [`read_header`] plus the expected kind: what a reader that inflates the payload itself (the browser,
/// with `DecompressionStream`) runs before inflating.
pub fn check(file: &[u8], expected: ShardKind) -> Result<EnvelopeHeader, ShardError> {
    let header = read_header(file)?;
    if header.kind != expected {
        return Err(ShardError::WrongKind {
            expected: expected.name(),
            found: header.kind.name(),
        });
    }
    Ok(header)
}

/// Checks a payload inflated outside this crate against the header's declared length.
pub fn check_inflated(header: &EnvelopeHeader, raw: &[u8]) -> Result<(), ShardError> {
    if raw.len() as u64 != header.raw_len as u64 {
        return Err(ShardError::InflatedLengthMismatch {
            declared: header.raw_len as u64,
            actual: raw.len() as u64,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_open_roundtrip_is_deterministic() {
        let payload = b"hello hello hello shard".repeat(10);
        let a = seal(ShardKind::Terms, &payload);
        let b = seal(ShardKind::Terms, &payload);
        assert_eq!(a, b);
        assert_eq!(open(&a, ShardKind::Terms).unwrap(), payload);
    }

    #[test]
    fn every_damage_is_a_typed_error() {
        let file = seal(ShardKind::Meta, b"some payload bytes that compress");
        assert_eq!(
            open(&file, ShardKind::Terms).unwrap_err().code(),
            "wrong_kind"
        );
        assert_eq!(
            open(&file[..10], ShardKind::Meta).unwrap_err().code(),
            "length_mismatch"
        );
        assert_eq!(
            open(&file[..file.len() - 1], ShardKind::Meta)
                .unwrap_err()
                .code(),
            "length_mismatch"
        );
        let mut bad = file.clone();
        bad[0] = b'X';
        assert_eq!(open(&bad, ShardKind::Meta).unwrap_err().code(), "bad_magic");
        let mut bad = file.clone();
        bad[4] = (FORMAT_VERSION + 1) as u8;
        assert_eq!(
            open(&bad, ShardKind::Meta).unwrap_err().code(),
            "unsupported_version"
        );
        let mut bad = file.clone();
        let last = bad.len() - 1;
        bad[last] ^= 0x55;
        assert_eq!(
            open(&bad, ShardKind::Meta).unwrap_err().code(),
            "checksum_mismatch"
        );
    }
}
