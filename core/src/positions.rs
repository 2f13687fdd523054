//! Position shards (format v7): where each term occurs inside each chunk, so a quoted phrase
//! (`"refresh token"`) matches only chunks with its words next to each other, in order, in one field.
//!
//! One position shard per term shard, `p/<h>.bin` beside term shard `t/<h>.bin` (format v10; v7–v9:
//! `p/<hash of all>-<i>.bin` beside shard `i`), holding the
//! same terms in the same order with the same postings: for each posting, per scored field the term
//! occurs in, its token positions. They are fetched only for the words of a quoted phrase, so a query
//! without one pays nothing for them.
//!
//! ```text
//! payload: varint term count, then per term:
//!   varint posting count, then per posting:
//!     varint chunk delta (from the previous posting's chunk; the first from 0), varint count (≥ 1),
//!     then the packed positions `field << 30 | position` as varint deltas (strictly increasing)
//! ```
//! One sorted vector per posting, fields packed into the top bits: a phrase check is one binary
//! search per word, and the reader carries less code than nested per-field lists would need.

use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, ShardError};
use crate::format::SCORED_FIELDS;

/// Bits of a packed position that hold the token position; the field sits above them.
pub const POSITION_BITS: u32 = 30;

/// `field` and `position` as one sortable value (positions past 2^30 − 1 are clamped: no chunk is
/// that long).
pub fn pack(field: u8, position: u32) -> u32 {
    (u32::from(field) << POSITION_BITS) | position.min((1 << POSITION_BITS) - 1)
}

/// Where one term occurs in one chunk: its packed positions ([`pack`]), sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionPosting {
    pub chunk: u32,
    pub positions: Vec<u32>,
}

/// The positions of the terms of one term shard, in its order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PositionShard {
    pub terms: Vec<Vec<PositionPosting>>,
}

impl PositionShard {
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.terms.len() as u64);
        for postings in &self.terms {
            w.varint(postings.len() as u64);
            let mut last = 0u32;
            for p in postings {
                w.varint(u64::from(p.chunk - last));
                last = p.chunk;
                w.varint(p.positions.len() as u64);
                let mut prev = 0u32;
                for &pos in &p.positions {
                    w.varint(u64::from(pos - prev));
                    prev = pos;
                }
            }
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Positions, &self.encode_payload())
    }

    pub fn decode(file: &[u8], num_chunks: u32) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Positions)?, num_chunks)
    }

    /// Decodes an already verified and inflated payload; chunks must be below `num_chunks` and
    /// strictly increasing, packed positions strictly increasing and of scored fields.
    pub fn decode_payload(raw: &[u8], num_chunks: u32) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let n = r.count("position terms", 1)?;
        let mut terms = Vec::with_capacity(n);
        for _ in 0..n {
            let m = r.count("position postings", 3)?;
            let mut postings: Vec<PositionPosting> = Vec::with_capacity(m);
            for _ in 0..m {
                let delta = r.varint_u32("chunk delta")?;
                let chunk = match postings.last() {
                    None => Some(delta),
                    Some(prev) if delta > 0 => prev.chunk.checked_add(delta),
                    Some(_) => None,
                }
                .filter(|&c| c < num_chunks)
                .ok_or_else(|| invalid("position chunk", "not increasing or past the chunks"))?;
                let k = r.count("positions", 1)?;
                let mut positions: Vec<u32> = Vec::with_capacity(k);
                for _ in 0..k {
                    let d = r.varint_u32("position")?;
                    let pos = match positions.last() {
                        None => Some(d),
                        Some(&prev) if d > 0 => prev.checked_add(d),
                        Some(_) => None,
                    }
                    .filter(|&p| (p >> POSITION_BITS) < SCORED_FIELDS as u32)
                    .ok_or_else(|| invalid("positions", "not increasing or of no field"))?;
                    positions.push(pos);
                }
                if positions.is_empty() {
                    return Err(invalid("positions", "empty"));
                }
                postings.push(PositionPosting { chunk, positions });
            }
            terms.push(postings);
        }
        r.finish("position shard")?;
        Ok(PositionShard { terms })
    }
}

/// The chunks where `terms` occur in order at their offsets (`(postings of the term, its offset from
/// the phrase's first word)`), in one field: sorted chunk ordinals.
pub fn phrase_chunks(terms: &[(&[PositionPosting], u32)]) -> Vec<u32> {
    let Some(((first, _), rest)) = terms.split_first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    'chunks: for p in first.iter() {
        // Each other word's posting in this chunk (postings are sorted by chunk).
        let mut others = Vec::with_capacity(rest.len());
        for (postings, offset) in rest {
            match postings.binary_search_by_key(&p.chunk, |q| q.chunk) {
                Ok(i) => others.push((&postings[i].positions, *offset)),
                Err(_) => continue 'chunks,
            }
        }
        for &start in &p.positions {
            // The offsets stay inside the start's field: a phrase never spans two fields.
            let room = (1u32 << POSITION_BITS) - 1 - (start & ((1 << POSITION_BITS) - 1));
            if others
                .iter()
                .all(|(ps, offset)| *offset <= room && ps.binary_search(&(start + offset)).is_ok())
            {
                out.push(p.chunk);
                continue 'chunks;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard() -> PositionShard {
        PositionShard {
            terms: vec![
                vec![
                    PositionPosting {
                        chunk: 0,
                        positions: vec![pack(0, 0), pack(2, 3), pack(2, 9)],
                    },
                    PositionPosting {
                        chunk: 4,
                        positions: vec![pack(2, 1)],
                    },
                ],
                vec![PositionPosting {
                    chunk: 0,
                    positions: vec![pack(0, 1), pack(2, 4), pack(2, 20)],
                }],
            ],
        }
    }

    #[test]
    fn position_shards_roundtrip() {
        let s = shard();
        assert_eq!(PositionShard::decode(&s.encode(), 5).unwrap(), s);
        // A chunk beyond the manifest's is an error, not a panic.
        assert!(PositionShard::decode(&s.encode(), 4).is_err());
    }

    #[test]
    fn damaged_position_shards_are_errors_never_panics() {
        let payload = shard().encode_payload();
        let mut seed = 0x9e37_79b9u32;
        for _ in 0..3000 {
            let mut p = payload.clone();
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let i = seed as usize % p.len();
            p[i] = (seed >> 8) as u8;
            if seed.is_multiple_of(7) {
                p.truncate(i);
            }
            let _ = PositionShard::decode_payload(&p, 5);
        }
    }

    #[test]
    fn phrases_need_their_words_in_order_in_one_field() {
        let s = shard();
        let (a, b) = (&s.terms[0][..], &s.terms[1][..]);
        // `a b`: a at 3 and b at 4 in field 2 of chunk 0.
        assert_eq!(phrase_chunks(&[(a, 0), (b, 1)]), [0]);
        // `b a`: never in that order.
        assert!(phrase_chunks(&[(b, 0), (a, 1)]).is_empty());
        // `a _ b` (a stopword between): no position 5 for b.
        assert!(phrase_chunks(&[(a, 0), (b, 2)]).is_empty());
        // Field 0 has a at 0 and b at 1, field 2 too (3, 4): either field matches, never across.
        assert_eq!(phrase_chunks(&[(a, 0), (b, 1)]), [0]);
        assert_eq!(pack(3, u32::MAX) >> POSITION_BITS, 3);
        // One word: its chunks.
        assert_eq!(phrase_chunks(&[(a, 0)]), [0, 4]);
    }
}
