//! The static query encoder (format v3): one fitted row per indexed term, so that a browser can map a
//! query into the document vectors' space without running the model.
//!
//! The build fits the rows by ridge regression so that the mean of a text's term rows approximates
//! the full model's embedding of that text (`aidocs-index`'s `encoder` module). Here is the writer and
//! reader of the rows and the encoding both sides run:
//!
//! - the manifest's [`VectorRef`](crate::vectors::VectorRef) carries a [`TermRowsRef`]: dimensionality,
//!   shard count and a file prefix;
//! - a term's rows live in shard `term_hash(term) % shards`, file `{prefix}{i:x}.bin`, so a query
//!   fetches one small shard per term and nothing else (the prefix is a hash of every row shard, so the
//!   names stay content-addressed and immutable);
//! - the terms are the analyzer's terms, the same ones the term shards hold: the manifest's filters
//!   already rule out absent terms without a fetch, and no tokenizer vocabulary is shipped.

use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, ShardError};
use crate::quantize::{check_dims, read_quantized, read_scale, write_quantized};

/// Where the static encoder's rows are.
#[derive(Debug, Clone, PartialEq)]
pub struct TermRowsRef {
    pub dims: u32,
    /// Number of row shards (at least 1).
    pub shards: u32,
    /// File name prefix of every row shard, e.g. `q/3fa2…-`.
    pub prefix: String,
    /// Terms with a row.
    pub terms: u32,
    /// The fit's intercept (the mean document vector), int8 with one scale: a query's encoding is
    /// `mean + average of its rows`, normalized.
    pub mean_scale: f32,
    pub mean: Vec<i8>,
}

impl TermRowsRef {
    pub(crate) fn encode(&self, w: &mut ByteWriter) {
        w.varint(self.dims as u64);
        w.varint(self.shards as u64);
        w.str(&self.prefix);
        w.varint(self.terms as u64);
        w.f32(self.mean_scale);
        let bytes: Vec<u8> = self.mean.iter().map(|&v| v as u8).collect();
        w.raw(&bytes);
    }

    pub(crate) fn decode(r: &mut ByteReader<'_>) -> Result<Self, ShardError> {
        let dims = r.varint_u32("term rows dims")?;
        check_dims(dims)?;
        let shards = r.varint_u32("term row shards")?;
        if shards == 0 || shards > 1 << 20 {
            return Err(invalid("term row shards", "not in 1..=1048576"));
        }
        let prefix = r.str("term rows prefix")?.to_owned();
        // The prefix becomes a path: the same rules as every other file name of the index.
        crate::names::check_file_name(&crate::names::numbered_file(&prefix, 0))?;
        let terms = r.varint_u32("term rows count")?;
        let mean_scale = read_scale(r, "term rows mean scale")?;
        let mean = r
            .take(dims as usize, "term rows mean")?
            .iter()
            .map(|&b| b as i8)
            .collect();
        Ok(TermRowsRef {
            dims,
            shards,
            prefix,
            terms,
            mean_scale,
            mean,
        })
    }

    /// The shard that holds `term`'s row, if it has one.
    pub fn shard_of(&self, term: &str) -> u32 {
        (crate::filter::term_hash(term) % self.shards as u64) as u32
    }

    /// File name of row shard `i`.
    pub fn file(&self, i: u32) -> String {
        crate::names::numbered_file(&self.prefix, i.into())
    }

    /// The row shard index of a file name of this table.
    pub fn shard_of_file(&self, name: &str) -> Option<u32> {
        let hex = name.strip_prefix(&self.prefix)?.strip_suffix(".bin")?;
        let i = u32::from_str_radix(hex, 16).ok()?;
        (i < self.shards && self.file(i) == name).then_some(i)
    }
}

/// One shard of term rows: terms sorted, each row int8 with one f32 scale (`row ≈ scale · q`).
#[derive(Debug, Clone, PartialEq)]
pub struct TermRowShard {
    pub dims: u32,
    pub terms: Vec<String>,
    pub scales: Vec<f32>,
    /// `terms.len() × dims` values.
    pub values: Vec<i8>,
}

impl TermRowShard {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.dims as u64);
        w.varint(self.terms.len() as u64);
        for t in &self.terms {
            w.str(t);
        }
        write_quantized(&mut w, &self.scales, &self.values);
        envelope::seal(ShardKind::TermRows, &w.into_inner())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::TermRows)?)
    }

    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let dims = r.varint_u32("term rows dims")?;
        check_dims(dims)?;
        let n = r.count("term row count", 2)?;
        let mut terms: Vec<String> = Vec::with_capacity(n);
        for _ in 0..n {
            let t = r.str("term")?;
            if terms.last().is_some_and(|last| last.as_str() >= t) {
                return Err(invalid("term rows", "terms not strictly ascending"));
            }
            terms.push(t.to_owned());
        }
        let (scales, values) = read_quantized(&mut r, n, dims)?;
        r.finish("term row shard")?;
        Ok(TermRowShard {
            dims,
            terms,
            scales,
            values,
        })
    }

    /// `term`'s row: its scale and quantized values.
    pub fn row(&self, term: &str) -> Option<(f32, &[i8])> {
        let i = self.terms.binary_search_by(|t| t.as_str().cmp(term)).ok()?;
        let d = self.dims as usize;
        Some((self.scales[i], &self.values[i * d..(i + 1) * d]))
    }
}

/// The static encoding of a query: `mean` plus the average of its terms' rows, at unit length (each
/// term once, in the order given, which callers keep sorted so both sides add in the same order).
/// `None` when no term has a row, or the result is zero.
pub fn encode_terms<'a>(
    rows: &TermRowsRef,
    terms: impl IntoIterator<Item = &'a str>,
    row: impl Fn(&str) -> Option<(f32, &'a [i8])>,
) -> Option<Vec<f32>> {
    let d = rows.dims as usize;
    let mut acc = vec![0f32; d];
    let mut n = 0u32;
    for t in terms {
        let Some((scale, q)) = row(t) else { continue };
        if q.len() != d {
            continue;
        }
        n += 1;
        for (a, &v) in acc.iter_mut().zip(q) {
            *a += scale * v as f32;
        }
    }
    if n == 0 {
        return None;
    }
    let inv = 1.0 / n as f32;
    for (a, &m) in acc.iter_mut().zip(&rows.mean) {
        *a = *a * inv + rows.mean_scale * m as f32;
    }
    let norm = libm::sqrtf(acc.iter().map(|x| x * x).sum::<f32>());
    if !norm.is_normal() {
        return None;
    }
    acc.iter_mut().for_each(|x| *x /= norm);
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard() -> TermRowShard {
        TermRowShard {
            dims: 3,
            terms: vec!["credenti".into(), "renew".into(), "token".into()],
            scales: vec![0.01, 0.02, 0.0],
            values: vec![10, 0, -5, 0, 50, 5, 1, 1, 1],
        }
    }

    #[test]
    fn row_shards_roundtrip_and_encode_queries() {
        let s = shard();
        let back = TermRowShard::decode(&s.encode()).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.row("renew"), Some((0.02, &[0i8, 50, 5][..])));
        assert_eq!(back.row("absent"), None);
        let r = TermRowsRef {
            dims: 3,
            shards: 1,
            prefix: "q/x-".into(),
            terms: 3,
            mean_scale: 0.0,
            mean: vec![0, 0, 0],
        };
        let q = encode_terms(&r, ["credenti", "renew", "absent"], |t| back.row(t)).unwrap();
        let norm: f32 = q.iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-5);
        assert!(q[1] > q[0] && q[0] > 0.0);
        // A zero row (scale 0) alone encodes nothing, and no known term encodes nothing.
        assert_eq!(encode_terms(&r, ["token"], |t| back.row(t)), None);
        assert_eq!(encode_terms(&r, ["absent"], |t| back.row(t)), None);
        // The intercept is added to the rows' average.
        let with_mean = TermRowsRef {
            mean_scale: 1.0,
            mean: vec![0, 0, 1],
            ..r
        };
        let q = encode_terms(&with_mean, ["token"], |t| back.row(t)).unwrap();
        assert_eq!(q, vec![0.0, 0.0, 1.0]);
    }

    #[test]
    fn table_refs_name_their_files() {
        let r = TermRowsRef {
            dims: 3,
            shards: 20,
            prefix: "q/abc-".into(),
            terms: 7,
            mean_scale: 0.5,
            mean: vec![1, -2, 3],
        };
        let mut w = ByteWriter::new();
        r.encode(&mut w);
        let bytes = w.into_inner();
        let back = TermRowsRef::decode(&mut ByteReader::new(&bytes)).unwrap();
        assert_eq!(back, r);
        assert_eq!(r.file(17), "q/abc-11.bin");
        assert_eq!(r.shard_of_file("q/abc-11.bin"), Some(17));
        assert_eq!(r.shard_of_file("q/abc-14.bin"), None); // 20 is out of range
        assert_eq!(r.shard_of_file("q/abc-011.bin"), None); // not the canonical name
        assert!(r.shard_of("renew") < 20);
    }

    #[test]
    fn damaged_row_shards_are_typed_errors() {
        let raw = envelope::open(&shard().encode(), ShardKind::TermRows).unwrap();
        for cut in 0..raw.len() {
            assert!(
                TermRowShard::decode_payload(&raw[..cut]).is_err(),
                "cut {cut}"
            );
        }
        let mut unsorted = shard();
        unsorted.terms.swap(0, 1);
        let raw = envelope::open(&unsorted.encode(), ShardKind::TermRows).unwrap();
        assert!(TermRowShard::decode_payload(&raw).is_err());
        let bad = [1u8, 0x80, 0x80, 0x80, 0x80, 0x10];
        assert!(TermRowShard::decode_payload(&bad).is_err());
    }
}
