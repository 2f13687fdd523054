//! Shard file names: how the manifest stores them, and the check every name read from a file passes
//! before it becomes a path or a URL. Shared by the manifest, the vector directory and the partition
//! table, so none of them depends on another for it.

use crate::bytes::{ByteReader, ByteWriter};
use crate::error::{invalid, ShardError};

/// Shard file names are `t/<hex>.bin`, `m/<hex>.bin` or `v/<hex>.bin`: nothing a reader could be tricked into
/// resolving outside the index directory.
/// Where term shards live, and metadata shards (`dir/<12 hex digits>.bin` when content-hashed).
pub const TERM_DIR: &str = "t";
pub const META_DIR: &str = "m";
/// Where directory pages live (format v11).
pub const DIRECTORY_DIR: &str = "d";
/// Hex digits of a content-hashed name: 48 bits, stored as 6 bytes since v5.
const HASH_HEX: usize = 12;

/// How a manifest list stores its file names (v5): as 6 raw bytes when every name is content-hashed
/// (`dir/<12 hex>.bin`: 2,600 names of a 10,000-page site cost 9 KB less than as text, even
/// deflated), else as strings. Before v5, always strings.
pub(crate) enum NameList<'d> {
    Strings,
    Hashed(&'d str),
}

impl<'d> NameList<'d> {
    pub(crate) fn of<'a>(dir: &'d str, mut names: impl Iterator<Item = &'a str>) -> Self {
        if names.all(|n| hashed_name(dir, n).is_some()) {
            NameList::Hashed(dir)
        } else {
            NameList::Strings
        }
    }

    pub(crate) fn write_mode(&self, w: &mut ByteWriter) {
        w.u8(matches!(self, NameList::Hashed(_)) as u8);
    }

    pub(crate) fn write(&self, w: &mut ByteWriter, name: &str) {
        match self {
            NameList::Hashed(dir) => match hashed_name(dir, name) {
                Some(bytes) => w.raw(&bytes),
                None => unreachable!("NameList::of checked every name"),
            },
            NameList::Strings => w.str(name),
        }
    }

    pub(crate) fn read_mode(
        r: &mut ByteReader<'_>,
        v5: bool,
        dir: &'d str,
    ) -> Result<Self, ShardError> {
        if !v5 {
            return Ok(NameList::Strings);
        }
        match r.u8("file name mode")? {
            0 => Ok(NameList::Strings),
            1 => Ok(NameList::Hashed(dir)),
            _ => Err(invalid("file name mode", "not 0 or 1")),
        }
    }

    pub(crate) fn read(&self, r: &mut ByteReader<'_>) -> Result<String, ShardError> {
        match self {
            NameList::Hashed(dir) => {
                let bytes = r.take(HASH_HEX / 2, "shard file hash")?;
                let mut name = String::with_capacity(dir.len() + HASH_HEX + 5);
                name.push_str(dir);
                name.push('/');
                for &b in bytes {
                    crate::text::push_hex(&mut name, b.into(), 2);
                }
                name.push_str(".bin");
                Ok(name)
            }
            NameList::Strings => read_file_name(r),
        }
    }
}

/// File `i` of a numbered series: `<prefix><i in lowercase hex>.bin` (row shards, vector
/// partitions, position shards before v10).
pub fn numbered_file(prefix: &str, i: u64) -> String {
    let mut name = String::with_capacity(prefix.len() + 8);
    name.push_str(prefix);
    crate::text::push_hex(&mut name, i, 1);
    name.push_str(".bin");
    name
}

/// The 6 bytes of `dir/<12 lowercase hex digits>.bin`, or `None` for any other name.
pub(crate) fn hashed_name(dir: &str, name: &str) -> Option<[u8; HASH_HEX / 2]> {
    let hex = name
        .strip_prefix(dir)?
        .strip_prefix('/')?
        .strip_suffix(".bin")?
        .as_bytes();
    if hex.len() != HASH_HEX {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; HASH_HEX / 2];
    for (i, o) in out.iter_mut().enumerate() {
        *o = (digit(hex[2 * i])? << 4) | digit(hex[2 * i + 1])?;
    }
    Some(out)
}

pub(crate) fn read_file_name(r: &mut ByteReader<'_>) -> Result<String, ShardError> {
    let name = r.str("shard file name")?;
    check_file_name(name)?;
    Ok(name.to_owned())
}

/// Index file names are `dir/name.bin`-shaped: they become paths and URLs on the reading side.
pub(crate) fn check_file_name(name: &str) -> Result<(), ShardError> {
    // Byte by byte: two non-empty parts around one '/', of [A-Za-z0-9._-], no "..". (No string
    // searcher or split iterator: this runs in every reader's wasm module.)
    let b = name.as_bytes();
    let ok = b.len() <= 80
        && b.iter().filter(|&&c| c == b'/').count() == 1
        && b.first() != Some(&b'/')
        && b.last() != Some(&b'/')
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-' | b'/'))
        && !b.windows(2).any(|w| w == b"..");
    if !ok {
        return Err(invalid("shard file name", "not of the form dir/name.bin"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check as it was written with `split` and `contains` (what the byte-wise one replaced).
    fn reference(name: &str) -> bool {
        name.len() <= 80
            && name.split('/').count() == 2
            && name.split('/').all(|p| {
                !p.is_empty()
                    && p.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
            })
            && !name.contains("..")
    }

    #[test]
    fn issue_21_file_names_are_checked_as_before_byte_by_byte() {
        // Every name of up to 5 characters over an alphabet of what matters, and long ones.
        let alphabet = ["a", "0", ".", "/", "-", "_", "é", " ", "\\"];
        let mut names = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = (last.iter())
                .flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(last.iter().cloned());
        }
        for len in [78, 79, 80, 81] {
            names.push(format!("t/{}", "a".repeat(len - 2)));
        }
        names.extend(
            [
                "t/abc.bin",
                "p/x-1_2.bin",
                "../x.bin",
                "t/../x",
                "t//x",
                "/t/x",
            ]
            .map(String::from),
        );
        for name in &names {
            assert_eq!(check_file_name(name).is_ok(), reference(name), "{name:?}");
        }
        assert!(check_file_name("t/0123456789ab.bin").is_ok());
    }
}
