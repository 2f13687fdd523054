//! Field-norm codes: a field's token count quantized to one byte, exactly as tantivy 0.27 does it
//! (`tantivy::fieldnorm`, MIT). The exporter copies tantivy's codes into postings, and both sides decode
//! them as this table lists (computed, [`id_to_fieldnorm`]): lengths up to 40 are exact, longer ones
//! lose precision on a log-like scale.

/// Decoded length for each code (tantivy's `FIELD_NORMS_TABLE`).
pub const FIELD_NORMS_TABLE: [u32; 256] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 42, 44, 46, 48, 50, 52, 54, 56, 60,
    64, 68, 72, 76, 80, 84, 88, 96, 104, 112, 120, 128, 136, 144, 152, 168, 184, 200, 216, 232,
    248, 264, 280, 312, 344, 376, 408, 440, 472, 504, 536, 600, 664, 728, 792, 856, 920, 984, 1048,
    1176, 1304, 1432, 1560, 1688, 1816, 1944, 2072, 2328, 2584, 2840, 3096, 3352, 3608, 3864, 4120,
    4632, 5144, 5656, 6168, 6680, 7192, 7704, 8216, 9240, 10264, 11288, 12312, 13336, 14360, 15384,
    16408, 18456, 20504, 22552, 24600, 26648, 28696, 30744, 32792, 36888, 40984, 45080, 49176,
    53272, 57368, 61464, 65560, 73752, 81944, 90136, 98328, 106520, 114712, 122904, 131096, 147480,
    163864, 180248, 196632, 213016, 229400, 245784, 262168, 294936, 327704, 360472, 393240, 426008,
    458776, 491544, 524312, 589848, 655384, 720920, 786456, 851992, 917528, 983064, 1048600,
    1179672, 1310744, 1441816, 1572888, 1703960, 1835032, 1966104, 2097176, 2359320, 2621464,
    2883608, 3145752, 3407896, 3670040, 3932184, 4194328, 4718616, 5242904, 5767192, 6291480,
    6815768, 7340056, 7864344, 8388632, 9437208, 10485784, 11534360, 12582936, 13631512, 14680088,
    15728664, 16777240, 18874392, 20971544, 23068696, 25165848, 27263000, 29360152, 31457304,
    33554456, 37748760, 41943064, 46137368, 50331672, 54525976, 58720280, 62914584, 67108888,
    75497496, 83886104, 92274712, 100663320, 109051928, 117440536, 125829144, 134217752, 150994968,
    167772184, 184549400, 201326616, 218103832, 234881048, 251658264, 268435480, 301989912,
    335544344, 369098776, 402653208, 436207640, 469762072, 503316504, 536870936, 603979800,
    671088664, 738197528, 805306392, 872415256, 939524120, 1006632984, 1073741848, 1207959576,
    1342177304, 1476395032, 1610612760, 1744830488, 1879048216, 2013265944,
];

/// The length a code stands for: [`FIELD_NORMS_TABLE`]`[id]`, computed (Lucene's
/// `SmallFloat.byte4ToInt`, which the table lists: 24 exact lengths, then a 3-bit mantissa and an
/// exponent), so that the table's 1 KB stays out of every reader's wasm (issue 21).
pub fn id_to_fieldnorm(id: u8) -> u32 {
    const EXACT: u32 = 24;
    let Some(i) = (id as u32).checked_sub(EXACT) else {
        return id as u32;
    };
    let (mantissa, exponent) = (i & 7, i >> 3);
    EXACT
        + match exponent {
            0 => mantissa,
            e => (mantissa | 8) << (e - 1),
        }
}

/// The code of a length: the largest table entry not above it.
pub fn fieldnorm_to_id(len: u32) -> u8 {
    match FIELD_NORMS_TABLE.binary_search(&len) {
        Ok(i) => i as u8,
        Err(i) => (i - 1) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_roundtrips_small_lengths() {
        assert!(FIELD_NORMS_TABLE.windows(2).all(|w| w[0] < w[1]));
        for n in 0..=40 {
            assert_eq!(id_to_fieldnorm(fieldnorm_to_id(n)), n);
        }
        assert_eq!(fieldnorm_to_id(u32::MAX), 255);
    }

    #[test]
    fn issue_21_computed_lengths_are_the_table() {
        for id in 0..=255u8 {
            assert_eq!(
                id_to_fieldnorm(id),
                FIELD_NORMS_TABLE[id as usize],
                "code {id}"
            );
        }
    }
}
