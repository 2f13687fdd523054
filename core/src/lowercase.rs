//! Lowercasing for the analyzer, from a table of our own (`lowercase_table.rs`, generated from
//! `char::to_lowercase`): 1.5 KB of runs where the standard library's table is 11 KB of pairs in
//! every reader's wasm module, and an analyzer whose output cannot change with the toolchain's
//! Unicode version unnoticed (the tests below compare it with `char::to_lowercase` for every code
//! point; a toolchain whose mappings differ fails them, and the table is then regenerated together
//! with a new `ANALYZER_VERSION`).

use crate::lowercase_table::RUNS;

const START_BITS: u32 = 21;

/// `c` lowercased, as `char::to_lowercase` does it (one or two characters), into `push`.
pub(crate) fn to_lowercase(c: char, mut push: impl FnMut(char)) {
    if c.is_ascii() {
        return push(c.to_ascii_lowercase());
    }
    // U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE: the one mapping to two characters.
    if c == '\u{130}' {
        push('i');
        return push('\u{307}');
    }
    push(lower_one(c));
}

fn lower_one(c: char) -> char {
    let v = c as u32;
    let start = |&(packed, _): &(u32, i32)| packed & ((1 << START_BITS) - 1);
    // The last run starting at or before `v`.
    let i = RUNS.partition_point(|r| start(r) <= v);
    let Some(run @ &(packed, delta)) = i.checked_sub(1).map(|i| &RUNS[i]) else {
        return c;
    };
    let count = (packed >> START_BITS) & 0x7f;
    let stride = ((packed >> 28) & 1) + 1;
    let offset = v - start(run);
    if !offset.is_multiple_of(stride) || offset / stride >= count {
        return c;
    }
    char::from_u32(v.wrapping_add_signed(delta)).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs `char::to_lowercase` gives on this toolchain, as `lowercase_table.rs` stores them.
    fn runs_from_std() -> Vec<(u32, i32)> {
        let mut runs: Vec<(u32, u32, u32, i32)> = Vec::new();
        for v in 0x80u32..=0x10FFFF {
            let Some(c) = char::from_u32(v) else { continue };
            let mut l = c.to_lowercase();
            let (Some(to), None) = (l.next(), l.next()) else {
                continue; // two characters: U+0130, handled in code
            };
            if to == c {
                continue;
            }
            let delta = to as i32 - v as i32;
            if let Some(r) = runs.last_mut() {
                if r.3 == delta && r.0 + r.1 * r.2 == v {
                    r.1 += 1;
                    continue;
                }
                if r.1 == 1 && r.3 == delta && (v - r.0 == 1 || v - r.0 == 2) {
                    r.2 = v - r.0;
                    r.1 = 2;
                    continue;
                }
            }
            runs.push((v, 1, 1, delta));
        }
        runs.iter()
            .map(|&(s, n, stride, d)| {
                assert!(s < 1 << START_BITS && n < 128 && (1..=2).contains(&stride));
                (s | n << START_BITS | (stride - 1) << 28, d)
            })
            .collect()
    }

    #[test]
    fn the_table_is_what_the_standard_library_gives() {
        let runs = runs_from_std();
        if std::env::var_os("AIDOCS_GENERATE").is_some() {
            let rows: Vec<String> = runs
                .iter()
                .map(|(p, d)| format!("({p:#010x}, {d})"))
                .collect();
            for line in rows.chunks(6) {
                println!("    {},", line.join(", "));
            }
        }
        assert_eq!(
            runs,
            RUNS.to_vec(),
            "char::to_lowercase differs from lowercase_table.rs on this toolchain ({:?}): \
             regenerate it (AIDOCS_GENERATE=1) and bump ANALYZER_VERSION",
            char::UNICODE_VERSION
        );
    }

    #[test]
    fn every_code_point_lowercases_as_the_standard_library_does() {
        for v in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(v) else { continue };
            let mut ours = Vec::new();
            to_lowercase(c, |l| ours.push(l));
            let std: Vec<char> = c.to_lowercase().collect();
            assert_eq!(ours, std, "U+{v:04X}");
        }
    }
}
