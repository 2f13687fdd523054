//! Strings built without `core::fmt`: numbers in decimal and hex, and error messages.
//!
//! Why: every reader's wasm module carries what the query path reaches. A single `format!` or
//! `to_string()` on an error links the formatting machinery (`fmt::write`, padding, integer
//! formatting: about 1.5 KB of gzipped wasm, issue 21). The errors' `Display` impls write the same
//! [`Message`] text, so the CLI and the browser say the same thing.

use std::fmt;

/// Appends `v` in decimal.
pub fn push_uint(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    push_ascii(out, &buf[i..]);
}

/// Appends `v` in lowercase hex, zero-padded to at least `min_digits` digits (`{v:0min_digits$x}`).
pub fn push_hex(out: &mut String, mut v: u64, min_digits: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [b'0'; 16];
    let mut i = buf.len();
    while v != 0 {
        i -= 1;
        buf[i] = HEX[(v & 0xf) as usize];
        v >>= 4;
    }
    for _ in 16..min_digits {
        out.push('0');
    }
    push_ascii(out, &buf[i.min(16 - min_digits.clamp(1, 16))..]);
}

fn push_ascii(out: &mut String, digits: &[u8]) {
    for &b in digits {
        out.push(b as char);
    }
}

/// The parts joined, in one allocation.
pub fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

/// The parts of `s` between the ASCII byte `sep`, as `s.split(sep as char)` gives them, without
/// the standard library's pattern searcher (and its `memchr`) in every reader's wasm module.
pub fn split_ascii(s: &str, sep: u8) -> impl Iterator<Item = &str> {
    // A byte past ASCII could fall inside a character, and slicing there would trap.
    assert!(sep.is_ascii(), "split_ascii splits at an ASCII byte");
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|b| b == sep) {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// One piece of a message: text or a number.
pub enum Part<'a> {
    Str(&'a str),
    Uint(u64),
    /// Hex, zero-padded to 8 digits (checksums).
    Hex8(u64),
}

impl<'a> From<&'a str> for Part<'a> {
    fn from(s: &'a str) -> Self {
        Part::Str(s)
    }
}

impl<'a> From<&'a String> for Part<'a> {
    fn from(s: &'a String) -> Self {
        Part::Str(s)
    }
}

impl From<u64> for Part<'_> {
    fn from(v: u64) -> Self {
        Part::Uint(v)
    }
}

impl From<u32> for Part<'_> {
    fn from(v: u32) -> Self {
        Part::Uint(v.into())
    }
}

impl From<u16> for Part<'_> {
    fn from(v: u16) -> Self {
        Part::Uint(v.into())
    }
}

impl From<u8> for Part<'_> {
    fn from(v: u8) -> Self {
        Part::Uint(v.into())
    }
}

impl From<usize> for Part<'_> {
    fn from(v: usize) -> Self {
        Part::Uint(v as u64)
    }
}

/// Appends the parts.
pub fn push_parts(out: &mut String, parts: &[Part<'_>]) {
    for p in parts {
        match *p {
            Part::Str(s) => out.push_str(s),
            Part::Uint(v) => push_uint(out, v),
            Part::Hex8(v) => push_hex(out, v, 8),
        }
    }
}

/// The parts as one string: `message!["term shard ", name, " was needed"]`.
#[macro_export]
#[doc(hidden)]
macro_rules! message {
    ($($part:expr),* $(,)?) => {{
        let mut out = ::std::string::String::new();
        $crate::text::push_parts(&mut out, &[$($crate::text::Part::from($part)),*]);
        out
    }};
}

/// An error that writes its own message (and through it its `Display`), without `core::fmt`.
pub trait Message {
    fn write_message(&self, out: &mut String);

    fn message(&self) -> String {
        let mut out = String::new();
        self.write_message(&mut out);
        out
    }
}

/// `Display` of a [`Message`]: the one text, through `write_str` alone.
pub(crate) fn display(m: &impl Message, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(&m.message())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_format_prints_them() {
        for v in [
            0u64,
            1,
            9,
            10,
            15,
            16,
            255,
            4096,
            1 << 32,
            u64::MAX,
            0xdead_beef,
        ] {
            let mut s = String::new();
            push_uint(&mut s, v);
            assert_eq!(s, format!("{v}"));
            for width in [0, 1, 2, 8, 15, 16, 17, 24] {
                let mut h = String::new();
                push_hex(&mut h, v, width);
                assert_eq!(h, format!("{v:0width$x}"), "{v} {width}");
            }
        }
        assert_eq!(
            message!["a", 3u8, "b", &String::from("c"), Part::Hex8(0xab)],
            "a3bc000000ab"
        );
        assert_eq!(concat(&["x/", "y", ".bin"]), "x/y.bin");
        for s in ["", ",", "a", "a,b", ",a,,b,", "é,ü\u{1f}x", "\u{1f}\u{1f}"] {
            for sep in [b',', 0x1f] {
                let want: Vec<&str> = s.split(sep as char).collect();
                assert_eq!(split_ascii(s, sep).collect::<Vec<_>>(), want, "{s:?}");
            }
        }
    }
}
