//! Chunk vectors (format v2): a vector directory and partitioned vector shards, writer and reader side
//! by side, and the exact scoring both sides run.
//!
//! - The manifest points at one **vector directory** (`v/<hash>.bin`, loaded only by vector and hybrid
//!   queries, so lexical queries pay nothing): the model name, the dimensionality, and an inverted-file
//!   partitioning of the vectors (k-means centroids, one **vector shard** per partition).
//! - A **vector shard** holds its chunks' unit vectors quantized to int8 with one f32 scale per vector
//!   (`v ≈ scale · q`): a quarter of f32's bytes, and dot products within 0.5% of f32 (measured).
//! - A query probes the `nprobe` partitions whose centroids are nearest and scores those chunks exactly.
//!   Probing every partition is exact search; the recall of fewer probes is measured by
//!   `aidocs-index eval --mode vector --nprobe N` against exact search.

use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{FormatError, ShardError};

/// What the manifest says about vectors.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorRef {
    /// The vector directory file.
    pub file: String,
    /// The document encoder, e.g. `all-MiniLM-L6-v2`; a query encoder must map into its space.
    pub model: String,
    pub dims: u32,
    /// Chunks with a vector (every chunk of the index).
    pub count: u32,
    /// The static query encoder's rows (v3), for clients that cannot run the model.
    pub term_rows: Option<crate::term_rows::TermRowsRef>,
    /// The [`Projection`] file (v3) from the model's space to the stored `dims`, when they differ: what
    /// a client that runs the full model applies to its query embedding.
    pub projection: Option<String>,
}

impl VectorRef {
    pub(crate) fn encode(&self, w: &mut ByteWriter) {
        w.str(&self.file);
        w.str(&self.model);
        w.varint(self.dims as u64);
        w.varint(self.count as u64);
    }

    /// The v3 extension (after the manifest's vector flag 2).
    pub(crate) fn encode_v3(&self, w: &mut ByteWriter) {
        self.encode(w);
        match &self.term_rows {
            Some(t) => {
                w.u8(1);
                t.encode(w);
            }
            None => w.u8(0),
        }
        match &self.projection {
            Some(p) => {
                w.u8(1);
                w.str(p);
            }
            None => w.u8(0),
        }
    }

    pub(crate) fn decode(r: &mut ByteReader<'_>, v3: bool) -> Result<Self, ShardError> {
        let file = crate::format::read_file_name(r)?;
        let model = r.str("vector model")?.to_owned();
        let dims = r.varint_u32("vector dims")?;
        let count = r.varint_u32("vector count")?;
        check_dims(dims)?;
        let (mut term_rows, mut projection) = (None, None);
        if v3 {
            if r.u8("term rows flag")? == 1 {
                let t = crate::term_rows::TermRowsRef::decode(r)?;
                if t.dims != dims {
                    return Err(invalid("term rows dims", "differ from the vectors' dims"));
                }
                term_rows = Some(t);
            }
            if r.u8("projection flag")? == 1 {
                projection = Some(crate::format::read_file_name(r)?);
            }
        }
        Ok(VectorRef {
            file,
            model,
            dims,
            count,
            term_rows,
            projection,
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PartitionEntry {
    pub file: String,
    pub count: u32,
}

/// Centroids and partition files.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorDir {
    pub model: String,
    pub dims: u32,
    /// `partitions.len() × dims` values, row-major (unit-length rows, f32: they are few).
    pub centroids: Vec<f32>,
    pub partitions: Vec<PartitionEntry>,
}

fn invalid(what: &'static str, detail: &'static str) -> ShardError {
    ShardError::Format(FormatError::Invalid { what, detail })
}

/// Dimensionality every vector structure accepts.
pub(crate) fn check_dims(dims: u32) -> Result<(), ShardError> {
    if dims == 0 || dims > 4096 {
        return Err(invalid("vector dims", "not in 1..=4096"));
    }
    Ok(())
}

impl VectorDir {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.str(&self.model);
        w.varint(self.dims as u64);
        w.varint(self.partitions.len() as u64);
        for p in &self.partitions {
            w.str(&p.file);
            w.varint(p.count as u64);
        }
        // v3: int8 centroids with one scale each (v2 stored f32: a quarter of the bytes for the file
        // every vector query loads first; probing only ranks centroids, which int8 keeps).
        let d = self.dims as usize;
        for c in self.centroids.chunks_exact(d) {
            let (scale, q) = quantize(c);
            w.f32(scale);
            let bytes: Vec<u8> = q.iter().map(|&v| v as u8).collect();
            w.raw(&bytes);
        }
        envelope::seal(ShardKind::VectorDir, &w.into_inner())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        let version = envelope::read_header(file)?.version;
        Self::decode_versioned(&envelope::open(file, ShardKind::VectorDir)?, version)
    }

    /// Decodes a payload of the current format version.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        Self::decode_versioned(raw, envelope::FORMAT_VERSION)
    }

    /// Decodes a payload written by format `version` (v2: f32 centroids; v3: int8).
    pub fn decode_versioned(raw: &[u8], version: u16) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let model = r.str("vector model")?.to_owned();
        let dims = r.varint_u32("vector dims")?;
        check_dims(dims)?;
        let n = r.count("partition list", 3)?;
        let mut partitions = Vec::with_capacity(n);
        for _ in 0..n {
            let file = crate::format::read_file_name(&mut r)?;
            let count = r.varint_u32("partition size")?;
            partitions.push(PartitionEntry { file, count });
        }
        let per = if version >= 3 {
            dims as usize + 4
        } else {
            dims as usize * 4
        };
        let values = n
            .checked_mul(per)
            .filter(|v| *v <= r.remaining())
            .map(|_| n * dims as usize)
            .ok_or(ShardError::Format(FormatError::Truncated {
                what: "centroids",
            }))?;
        let mut centroids = Vec::with_capacity(values);
        if version >= 3 {
            for _ in 0..n {
                let scale = r.f32("centroid scale")?;
                if !scale.is_finite() || scale < 0.0 {
                    return Err(invalid(
                        "centroid scale",
                        "not a finite non-negative number",
                    ));
                }
                for &b in r.take(dims as usize, "centroid")? {
                    centroids.push(scale * (b as i8) as f32);
                }
            }
        } else {
            for _ in 0..values {
                let x = r.f32("centroid")?;
                if !x.is_finite() {
                    return Err(invalid("centroid", "not finite"));
                }
                centroids.push(x);
            }
        }
        r.finish("vector directory")?;
        Ok(VectorDir {
            model,
            dims,
            centroids,
            partitions,
        })
    }

    /// Partition indexes by descending centroid similarity to `query`, the first `nprobe` of them
    /// (ties by index, so both sides probe the same ones).
    pub fn probe(&self, query: &[f32], nprobe: usize) -> Vec<usize> {
        let d = self.dims as usize;
        let mut sims: Vec<(usize, f32)> = self
            .centroids
            .chunks_exact(d)
            .enumerate()
            .map(|(i, c)| (i, dot_f32(c, query)))
            .collect();
        sims.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        sims.into_iter()
            .take(nprobe.max(1))
            .map(|(i, _)| i)
            .collect()
    }
}

/// One partition's vectors.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorShard {
    pub dims: u32,
    /// Chunk ordinals, ascending.
    pub chunks: Vec<u32>,
    pub scales: Vec<f32>,
    /// `chunks.len() × dims` quantized values.
    pub values: Vec<i8>,
}

impl VectorShard {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.dims as u64);
        w.varint(self.chunks.len() as u64);
        let mut last = 0u32;
        for (i, &c) in self.chunks.iter().enumerate() {
            w.varint(if i == 0 { c } else { c - last } as u64);
            last = c;
        }
        write_quantized(&mut w, &self.scales, &self.values);
        envelope::seal(ShardKind::Vectors, &w.into_inner())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Vectors)?)
    }

    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let dims = r.varint_u32("vector dims")?;
        check_dims(dims)?;
        let n = r.count("vector count", 1)?;
        let mut chunks = Vec::with_capacity(n);
        let mut last = 0u32;
        for i in 0..n {
            let d = r.varint_u32("chunk ordinal")?;
            let c = if i == 0 {
                d
            } else {
                if d == 0 {
                    return Err(invalid("chunk ordinals", "not strictly ascending"));
                }
                last.checked_add(d)
                    .ok_or(invalid("chunk ordinals", "overflow"))?
            };
            chunks.push(c);
            last = c;
        }
        let (scales, values) = read_quantized(&mut r, n, dims)?;
        r.finish("vector shard")?;
        Ok(VectorShard {
            dims,
            chunks,
            scales,
            values,
        })
    }

    /// `(chunk, cosine similarity)` of every vector with the unit `query`.
    pub fn scores<'a>(&'a self, query: &'a [f32]) -> impl Iterator<Item = (u32, f32)> + 'a {
        let d = self.dims as usize;
        let q = &query[..d.min(query.len())];
        self.values
            .chunks_exact(d)
            .zip(self.chunks.iter().zip(&self.scales))
            .map(move |(v, (&c, &s))| {
                let mut acc = 0f32;
                for (a, &b) in q.iter().zip(v) {
                    acc += a * b as f32;
                }
                (c, acc * s)
            })
    }
}

/// A linear map from the model's embedding space to the stored dimensions (the top principal
/// directions of the chunk vectors), for clients that embed queries with the full model. Browsers
/// never load it: the static encoder is fitted in the stored space directly.
#[derive(Debug, Clone, PartialEq)]
pub struct Projection {
    pub in_dims: u32,
    pub out_dims: u32,
    /// `out_dims × in_dims`, row-major.
    pub matrix: Vec<f32>,
}

impl Projection {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.in_dims as u64);
        w.varint(self.out_dims as u64);
        for &x in &self.matrix {
            w.f32(x);
        }
        envelope::seal(ShardKind::Projection, &w.into_inner())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Projection)?)
    }

    /// Decodes an already verified and inflated payload.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let in_dims = r.varint_u32("projection input dims")?;
        let out_dims = r.varint_u32("projection output dims")?;
        check_dims(in_dims)?;
        check_dims(out_dims)?;
        let n = (in_dims as usize) * (out_dims as usize);
        if n * 4 > r.remaining() {
            return Err(ShardError::Format(FormatError::Truncated {
                what: "projection",
            }));
        }
        let mut matrix = Vec::with_capacity(n);
        for _ in 0..n {
            let x = r.f32("projection")?;
            if !x.is_finite() {
                return Err(invalid("projection", "not finite"));
            }
            matrix.push(x);
        }
        r.finish("projection")?;
        Ok(Projection {
            in_dims,
            out_dims,
            matrix,
        })
    }

    /// `v` mapped to the stored space, at unit length (`None` for a wrong width or a zero result).
    pub fn apply(&self, v: &[f32]) -> Option<Vec<f32>> {
        if v.len() != self.in_dims as usize {
            return None;
        }
        let mut out: Vec<f32> = self
            .matrix
            .chunks_exact(self.in_dims as usize)
            .map(|row| dot_f32(row, v))
            .collect();
        let norm = libm::sqrtf(dot_f32(&out, &out));
        if !norm.is_normal() {
            return None;
        }
        out.iter_mut().for_each(|x| *x /= norm);
        Some(out)
    }
}

/// `n` int8 vectors as every quantized shard stores them: the `n` f32 scales, then the values.
pub(crate) fn write_quantized(w: &mut ByteWriter, scales: &[f32], values: &[i8]) {
    for &s in scales {
        w.f32(s);
    }
    let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
    w.raw(&bytes);
}

/// Reads what [`write_quantized`] wrote for `n` vectors of `dims` values.
pub(crate) fn read_quantized(
    r: &mut ByteReader<'_>,
    n: usize,
    dims: u32,
) -> Result<(Vec<f32>, Vec<i8>), ShardError> {
    let mut scales = Vec::with_capacity(n);
    for _ in 0..n {
        let s = r.f32("scale")?;
        if !s.is_finite() || s < 0.0 {
            return Err(invalid("scale", "not a finite non-negative number"));
        }
        scales.push(s);
    }
    let len = n
        .checked_mul(dims as usize)
        .ok_or(invalid("quantized values", "too large"))?;
    let values = r
        .take(len, "quantized values")?
        .iter()
        .map(|&b| b as i8)
        .collect();
    Ok((scales, values))
}

/// Quantizes a vector to int8 with a per-vector scale (`max |x| / 127`).
pub fn quantize(v: &[f32]) -> (f32, Vec<i8>) {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return (0.0, vec![0; v.len()]);
    }
    let scale = max / 127.0;
    let q = v
        .iter()
        .map(|x| libm::roundf(x / scale).clamp(-127.0, 127.0) as i8)
        .collect();
    (scale, q)
}

pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_roundtrip_and_quantized_dots_stay_close() {
        let dims = 8;
        let raw: Vec<Vec<f32>> = (0..5)
            .map(|i| {
                let mut v: Vec<f32> = (0..dims)
                    .map(|j| ((i * 7 + j * 3) % 11) as f32 - 5.0)
                    .collect();
                let n = dot_f32(&v, &v).sqrt();
                v.iter_mut().for_each(|x| *x /= n);
                v
            })
            .collect();
        let mut shard = VectorShard {
            dims: dims as u32,
            chunks: vec![3, 4, 9, 10, 200],
            scales: Vec::new(),
            values: Vec::new(),
        };
        for v in &raw {
            let (s, q) = quantize(v);
            shard.scales.push(s);
            shard.values.extend(q);
        }
        let file = shard.encode();
        let back = VectorShard::decode(&file).unwrap();
        assert_eq!(back, shard);
        let q = &raw[2];
        for ((c, s), v) in back.scores(q).zip(&raw) {
            assert!(
                (s - dot_f32(q, v)).abs() < 0.01,
                "chunk {c}: {s} vs {}",
                dot_f32(q, v)
            );
        }
        let dir = VectorDir {
            model: "m".into(),
            dims: 2,
            centroids: vec![1.0, 0.0, 0.0, 1.0, -1.0, 0.0],
            partitions: (0..3)
                .map(|i| PartitionEntry {
                    file: format!("v/{i}.bin"),
                    count: 1,
                })
                .collect(),
        };
        let back = VectorDir::decode(&dir.encode()).unwrap();
        assert_eq!(back, dir);
        assert_eq!(back.probe(&[0.1, 0.9], 2), vec![1, 0]);
    }

    #[test]
    fn damaged_vector_shards_are_typed_errors() {
        let shard = VectorShard {
            dims: 4,
            chunks: vec![1, 2],
            scales: vec![0.1, 0.2],
            values: vec![1, 2, 3, 4, 5, 6, 7, 8],
        };
        let raw = envelope::open(&shard.encode(), ShardKind::Vectors).unwrap();
        for cut in 0..raw.len() {
            assert!(
                VectorShard::decode_payload(&raw[..cut]).is_err(),
                "cut {cut}"
            );
        }
        let mut bad = raw.clone();
        bad[0] = 0; // dims 0
        assert!(VectorShard::decode_payload(&bad).is_err());
        assert!(VectorDir::decode_payload(&[1, b'm', 0x80, 0x80, 0x80, 0x80, 0x10]).is_err());
    }
}
