//! A term shard: a sorted, front-coded run of terms with their postings.

#[cfg(test)]
use super::Field;
use super::FIELD_COUNT;
use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, ShardError};

/// One chunk's occurrence of a term: frequency and field-norm code per field (0 frequency = absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    pub chunk: u32,
    pub tf: [u32; FIELD_COUNT],
    pub norm: [u8; FIELD_COUNT],
}

impl Posting {
    pub fn new(chunk: u32) -> Self {
        Posting {
            chunk,
            tf: [0; FIELD_COUNT],
            norm: [0; FIELD_COUNT],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermPostings {
    pub term: String,
    pub postings: Vec<Posting>,
}

/// A sorted run of terms with their postings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TermShard {
    pub terms: Vec<TermPostings>,
}

impl TermShard {
    /// Encodes the payload (before the envelope): used to size shards while writing.
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.terms.len() as u64);
        let mut prev: &str = "";
        for t in &self.terms {
            let shared = common_prefix(prev, &t.term);
            w.varint(shared as u64);
            w.str(&t.term[shared..]);
            w.varint(t.postings.len() as u64);
            let mut last = 0u32;
            for (i, p) in t.postings.iter().enumerate() {
                w.varint((p.chunk - if i == 0 { 0 } else { last + 1 }) as u64);
                last = p.chunk;
                let mask =
                    p.tf.iter()
                        .enumerate()
                        .fold(0u8, |m, (f, &tf)| if tf > 0 { m | (1 << f) } else { m });
                w.u8(mask);
                for f in 0..FIELD_COUNT {
                    if p.tf[f] > 0 {
                        w.varint(p.tf[f] as u64);
                        w.u8(p.norm[f]);
                    }
                }
            }
            prev = &t.term;
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Terms, &self.encode_payload())
    }

    /// Decodes and validates a term shard. `num_chunks` bounds every chunk ordinal.
    pub fn decode(file: &[u8], num_chunks: u32) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Terms)?, num_chunks)
    }

    /// Decodes an already verified and inflated payload (see [`envelope::check`]).
    pub fn decode_payload(raw: &[u8], num_chunks: u32) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let n = r.count("term count", 3)?;
        let mut terms: Vec<TermPostings> = Vec::with_capacity(n);
        let mut prev = String::new();
        let mut budget = front_coded_budget(raw.len());
        for _ in 0..n {
            let shared = r.varint("term shared prefix")? as usize;
            let suffix = r.str("term suffix")?;
            if shared > prev.len() || !prev.is_char_boundary(shared) {
                return Err(invalid(
                    "term",
                    "shared prefix longer than the previous term",
                ));
            }
            budget = (budget.checked_sub(shared + suffix.len()))
                .ok_or_else(|| invalid("term", "front coding expands past its bound"))?;
            let mut term = String::with_capacity(shared + suffix.len());
            term.push_str(&prev[..shared]);
            term.push_str(suffix);
            if !terms.is_empty() && term <= prev {
                return Err(invalid("term", "terms not strictly increasing"));
            }
            let m = r.count("posting count", 2)?;
            let mut postings = Vec::with_capacity(m);
            let mut next_min: u64 = 0;
            for _ in 0..m {
                let chunk = next_min + r.varint("chunk delta")?;
                if chunk >= num_chunks as u64 {
                    return Err(invalid("posting", "chunk ordinal out of range"));
                }
                next_min = chunk + 1;
                let mask = r.u8("field mask")?;
                if mask == 0 || mask >> FIELD_COUNT != 0 {
                    return Err(invalid("posting", "bad field mask"));
                }
                let mut p = Posting::new(chunk as u32);
                for f in 0..FIELD_COUNT {
                    if mask & (1 << f) != 0 {
                        p.tf[f] = r.varint_u32("term frequency")?;
                        if p.tf[f] == 0 {
                            return Err(invalid("posting", "zero term frequency"));
                        }
                        p.norm[f] = r.u8("field norm")?;
                    }
                }
                postings.push(p);
            }
            prev.clone_from(&term);
            terms.push(TermPostings { term, postings });
        }
        r.finish("term shard")?;
        Ok(TermShard { terms })
    }

    pub fn get(&self, term: &str) -> Option<&TermPostings> {
        self.terms
            .binary_search_by(|t| t.term.as_str().cmp(term))
            .ok()
            .map(|i| &self.terms[i])
    }

    /// Terms of this shard that start with `prefix`, in order.
    pub fn with_prefix<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = &'a TermPostings> + 'a {
        let start = self.terms.partition_point(|t| t.term.as_str() < prefix);
        self.terms[start..]
            .iter()
            .take_while(move |t| t.term.starts_with(prefix))
    }
}

/// The most bytes a front-coded list decoded from `raw_len` payload bytes may spell out. Each entry
/// may repeat all of the one before it, so without a bound a 138 KB list of one-byte suffixes
/// decodes to gigabytes; real lists expand a few times (their shared prefixes are short).
pub(crate) fn front_coded_budget(raw_len: usize) -> usize {
    raw_len.saturating_mul(32).saturating_add(1 << 16)
}

/// The byte length of the common prefix of `a` and `b`, on a character boundary (front coding).
pub(crate) fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = 0;
    for ((i, x), y) in a.char_indices().zip(b.chars()) {
        if x != y {
            return i;
        }
        n = i + x.len_utf8();
    }
    n
}

/// Sorted terms and postings of one chunk per text, as the indexer writes them: the analyzer's terms
/// in the body field, every field length `norm`. For tests that need real term shards.
#[cfg(test)]
pub(crate) fn analyzed_postings(texts: &[&str], norm: u8) -> Vec<TermPostings> {
    let analyzer = crate::analyzer::Analyzer::english();
    let mut terms: std::collections::BTreeMap<String, Vec<Posting>> = Default::default();
    for (i, t) in texts.iter().enumerate() {
        for tok in analyzer.analyze(t) {
            let list = terms.entry(tok.text).or_default();
            if list.last().map(|p| p.chunk) != Some(i as u32) {
                list.push(Posting::new(i as u32));
            }
            let p = list.last_mut().unwrap();
            p.tf[Field::Body as usize] += 1;
            p.norm[Field::Body as usize] = norm;
        }
    }
    terms
        .into_iter()
        .map(|(term, postings)| TermPostings { term, postings })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_terms() -> TermShard {
        let mut p = Posting::new(3);
        p.tf[Field::Body as usize] = 2;
        p.norm[Field::Body as usize] = 17;
        let mut q = Posting::new(9);
        q.tf[Field::Title as usize] = 1;
        q.norm[Field::Title as usize] = 2;
        TermShard {
            terms: vec![
                TermPostings {
                    term: "alpha".into(),
                    postings: vec![p, q],
                },
                TermPostings {
                    term: "alphabet".into(),
                    postings: vec![q],
                },
                TermPostings {
                    term: "é".into(),
                    postings: vec![p],
                },
            ],
        }
    }

    #[test]
    fn term_shard_roundtrip_and_lookup() {
        let s = sample_terms();
        let d = TermShard::decode(&s.encode(), 10).unwrap();
        assert_eq!(d, s);
        assert_eq!(d.get("alphabet").unwrap().postings.len(), 1);
        assert_eq!(d.with_prefix("alp").count(), 2);
        assert!(d.get("beta").is_none());
        assert!(
            TermShard::decode(&s.encode(), 5).is_err(),
            "chunk 9 must be out of range for 5 chunks"
        );
    }
}
