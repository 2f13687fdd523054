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
use crate::error::{invalid, FormatError, ShardError};
use crate::quantize::{check_dims, read_finite, read_quantized, read_scale, read_scales};
pub use crate::quantize::{dot_f32, quantize};

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
        let file = crate::names::read_file_name(r)?;
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
                projection = Some(crate::names::read_file_name(r)?);
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
    /// How many leading dimensions of each centroid are stored and probed (v4; `dims` before). The
    /// stored dimensions are principal directions in decreasing order of variance, so the leading ones
    /// rank centroids nearly as all do, and a large site's directory (every vector query's first
    /// file) stays small.
    pub probe_dims: u32,
    /// `partitions.len() × probe_dims` values, row-major.
    pub centroids: Vec<f32>,
    /// Every partition's file is `{partition_prefix}{i:x}.bin` (v5: the prefix is one hash over all
    /// partitions, so the directory stores it once instead of one content hash per partition;
    /// re-clustering rewrites every partition anyway). Empty for v2–v4, which named each file.
    pub partition_prefix: String,
    pub partitions: Vec<PartitionEntry>,
}

/// The file of partition `i` under `prefix` (format v5).
pub fn partition_file(prefix: &str, i: usize) -> String {
    crate::names::numbered_file(prefix, i as u64)
}

impl VectorDir {
    /// The file of the current format (v5). `partitions[i].file` must be
    /// `partition_file(&partition_prefix, i)`.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.str(&self.model);
        w.varint(self.dims as u64);
        w.varint(self.probe_dims as u64);
        w.str(&self.partition_prefix);
        w.varint(self.partitions.len() as u64);
        for (i, p) in self.partitions.iter().enumerate() {
            debug_assert_eq!(p.file, partition_file(&self.partition_prefix, i));
            w.varint(p.count as u64);
        }
        // v5: 4-bit residuals from the centroids' mean, as partitions store chunk vectors (v3–v4: int8
        // with one scale each, v2: f32). Probing only ranks centroids; half of int8's bytes for the file
        // every vector query loads first.
        let d = self.probe_dims as usize;
        let rows: Vec<&[f32]> = self.centroids.chunks_exact(d.max(1)).collect();
        let q = VectorShard::quantize(self.probe_dims, Vec::new(), &rows);
        q.write_residuals(&mut w);
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

    /// Decodes a payload written by format `version` (v2: f32 centroids; v3: int8; v4: int8 over the
    /// leading `probe_dims`; v5: 4-bit residuals, partitions named by one prefix).
    pub fn decode_versioned(raw: &[u8], version: u16) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let model = r.str("vector model")?.to_owned();
        let dims = r.varint_u32("vector dims")?;
        check_dims(dims)?;
        let probe_dims = if version >= 4 {
            let p = r.varint_u32("probe dims")?;
            if p == 0 || p > dims {
                return Err(invalid("probe dims", "not in 1..=dims"));
            }
            p
        } else {
            dims
        };
        let d = probe_dims as usize;
        if version >= 5 {
            let partition_prefix = r.str("partition prefix")?.to_owned();
            // The prefix becomes a path: the same rules as every other file name of the index.
            crate::names::check_file_name(&partition_file(&partition_prefix, 0))?;
            let n = r.count("partition list", 1)?;
            let mut partitions = Vec::with_capacity(n);
            for i in 0..n {
                let count = r.varint_u32("partition size")?;
                let file = partition_file(&partition_prefix, i);
                partitions.push(PartitionEntry { file, count });
            }
            let q = VectorShard::read_residuals(&mut r, probe_dims, Vec::new(), n)?;
            r.finish("vector directory")?;
            let centroids = (0..n).flat_map(|i| q.vector(i)).collect();
            return Ok(VectorDir {
                model,
                dims,
                probe_dims,
                centroids,
                partition_prefix,
                partitions,
            });
        }
        let n = r.count("partition list", 3)?;
        let mut partitions = Vec::with_capacity(n);
        for _ in 0..n {
            let file = crate::names::read_file_name(&mut r)?;
            let count = r.varint_u32("partition size")?;
            partitions.push(PartitionEntry { file, count });
        }
        let per = if version >= 3 {
            d + 4
        } else {
            dims as usize * 4
        };
        let values = n
            .checked_mul(per)
            .filter(|v| *v <= r.remaining())
            .map(|_| n * d)
            .ok_or(ShardError::Format(FormatError::Truncated {
                what: "centroids",
            }))?;
        let mut centroids = Vec::with_capacity(values);
        if version >= 3 {
            for _ in 0..n {
                let scale = read_scale(&mut r, "centroid scale")?;
                for &b in r.take(d, "centroid")? {
                    centroids.push(scale * (b as i8) as f32);
                }
            }
        } else {
            centroids = read_finite(&mut r, values, "centroid")?;
        }
        r.finish("vector directory")?;
        Ok(VectorDir {
            model,
            dims,
            probe_dims,
            centroids,
            partition_prefix: String::new(),
            partitions,
        })
    }

    /// Partition indexes by descending centroid similarity to `query`, the first `nprobe` of them
    /// (ties by index, so both sides probe the same ones).
    pub fn probe(&self, query: &[f32], nprobe: usize) -> Vec<usize> {
        let d = self.probe_dims as usize;
        let query = &query[..d.min(query.len())];
        let mut sims: Vec<(usize, f32)> = self
            .centroids
            .chunks_exact(d)
            .enumerate()
            .map(|(i, c)| (i, dot_f32(c, query)))
            .collect();
        let n = nprobe.max(1);
        crate::sort::sort_least(&mut sims, n, &mut |a, b| {
            b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)).is_lt()
        });
        sims.into_iter().take(n).map(|(i, _)| i).collect()
    }
}

/// One partition's vectors.
///
/// Format v4 stores each vector as a 4-bit residual from the partition's own base vector (its members'
/// mean, int8): `v ≈ base + scale · q` with `q` in `-7..=7`, two values per byte. Within a partition the
/// residuals are small, so 4 bits keep the ranking that int8 absolute vectors gave (measured on SciFact)
/// for about half the bytes of the file every vector query fetches most of. v2–v3 stored int8 absolute
/// vectors (`v ≈ scale · q`); both are read.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorShard {
    pub dims: u32,
    /// Chunk ordinals, ascending.
    pub chunks: Vec<u32>,
    /// What every vector is stored relative to, `base_scale · base`: `dims` int8 values (v4), or
    /// empty (v2–v3: absolute vectors).
    pub base: Vec<i8>,
    pub base_scale: f32,
    pub scales: Vec<f32>,
    /// `chunks.len() × dims` quantized values: 4-bit in `-7..=7` when `base` is set, else int8.
    pub values: Vec<i8>,
}

/// The largest magnitude of a 4-bit residual value.
const NIBBLE_MAX: f32 = 7.0;

impl VectorShard {
    /// Quantizes `rows` (one per chunk, ascending chunk ordinals) the way the current format stores
    /// them: the base is the rows' mean as int8, and each row a 4-bit residual from it.
    pub fn quantize(dims: u32, chunks: Vec<u32>, rows: &[&[f32]]) -> Self {
        let d = dims as usize;
        let mut mean = vec![0f32; d];
        for r in rows {
            mean.iter_mut().zip(*r).for_each(|(m, x)| *m += x);
        }
        mean.iter_mut().for_each(|m| *m /= rows.len().max(1) as f32);
        // The reader only knows the dequantized base: residuals are taken from that.
        let (base_scale, base) = quantize(&mean);
        let mut scales = Vec::with_capacity(rows.len());
        let mut values = Vec::with_capacity(rows.len() * d);
        for r in rows {
            let residual: Vec<f32> = r
                .iter()
                .zip(&base)
                .map(|(x, &b)| x - b as f32 * base_scale)
                .collect();
            let max = residual.iter().fold(0f32, |m, x| m.max(x.abs()));
            let scale = if max > 0.0 { max / NIBBLE_MAX } else { 0.0 };
            scales.push(scale);
            values.extend(residual.iter().map(|&x| {
                if scale == 0.0 {
                    0
                } else {
                    libm::roundf(x / scale).clamp(-NIBBLE_MAX, NIBBLE_MAX) as i8
                }
            }));
        }
        VectorShard {
            dims,
            chunks,
            base,
            base_scale,
            scales,
            values,
        }
    }

    /// The file of the current format (v4). `base` must hold `dims` values and `values` be in `-7..=7`,
    /// as [`VectorShard::quantize`] makes them.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.dims as u64);
        w.varint(self.chunks.len() as u64);
        let mut last = 0u32;
        for (i, &c) in self.chunks.iter().enumerate() {
            w.varint(if i == 0 { c } else { c - last } as u64);
            last = c;
        }
        self.write_residuals(&mut w);
        envelope::seal(ShardKind::Vectors, &w.into_inner())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        let version = envelope::read_header(file)?.version;
        Self::decode_versioned(&envelope::open(file, ShardKind::Vectors)?, version)
    }

    /// Decodes a payload of the current format version.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        Self::decode_versioned(raw, envelope::FORMAT_VERSION)
    }

    /// Decodes a payload written by format `version` (v2–v3: int8 absolute; v4: 4-bit residual).
    pub fn decode_versioned(raw: &[u8], version: u16) -> Result<Self, ShardError> {
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
        if version >= 4 {
            let shard = Self::read_residuals(&mut r, dims, chunks, n)?;
            r.finish("vector shard")?;
            return Ok(shard);
        }
        let (scales, values) = read_quantized(&mut r, n, dims)?;
        r.finish("vector shard")?;
        Ok(VectorShard {
            dims,
            chunks,
            base: Vec::new(),
            base_scale: 0.0,
            scales,
            values,
        })
    }

    /// The residual encoding (v4 partitions, v5 directory): base scale, int8 base, one scale per
    /// vector, then the 4-bit values two per byte.
    fn write_residuals(&self, w: &mut ByteWriter) {
        let d = self.dims as usize;
        debug_assert_eq!(self.base.len(), d, "residual vectors need a base");
        w.f32(self.base_scale);
        w.raw(&self.base.iter().map(|&v| v as u8).collect::<Vec<u8>>());
        for &s in &self.scales {
            w.f32(s);
        }
        let mut packed = Vec::with_capacity(self.scales.len() * d.div_ceil(2));
        for v in self.values.chunks_exact(d) {
            for pair in v.chunks(2) {
                let lo = (pair[0] as u8) & 0x0f;
                let hi = (pair.get(1).copied().unwrap_or(0) as u8) & 0x0f;
                packed.push(lo | (hi << 4));
            }
        }
        w.raw(&packed);
    }

    /// Reads what [`VectorShard::write_residuals`] wrote for `n` vectors of `dims`.
    fn read_residuals(
        r: &mut ByteReader<'_>,
        dims: u32,
        chunks: Vec<u32>,
        n: usize,
    ) -> Result<Self, ShardError> {
        let d = dims as usize;
        let base_scale = read_scale(r, "vector base scale")?;
        let base = r.take(d, "vector base")?.iter().map(|&b| b as i8).collect();
        if n.checked_mul(4).is_none_or(|b| b > r.remaining()) {
            return Err(ShardError::Format(FormatError::Truncated {
                what: "scales",
            }));
        }
        let scales = read_scales(r, n)?;
        let per = d.div_ceil(2);
        let len = n
            .checked_mul(per)
            .ok_or(invalid("quantized values", "too large"))?;
        let packed = r.take(len, "quantized values")?;
        let mut values = Vec::with_capacity(n * d);
        for row in packed.chunks_exact(per) {
            for (j, &b) in row.iter().enumerate() {
                values.push(nibble(b & 0x0f));
                if 2 * j + 1 < d {
                    values.push(nibble(b >> 4));
                }
            }
        }
        if values.iter().any(|&v| v < -7) {
            return Err(invalid("quantized values", "a 4-bit value of -8"));
        }
        Ok(VectorShard {
            dims,
            chunks,
            base,
            base_scale,
            scales,
            values,
        })
    }

    /// The `i`-th stored vector, dequantized.
    pub fn vector(&self, i: usize) -> Vec<f32> {
        let d = self.dims as usize;
        let s = self.scales[i];
        self.values[i * d..(i + 1) * d]
            .iter()
            .enumerate()
            .map(|(j, &q)| self.base_value(j) + s * q as f32)
            .collect()
    }

    /// `(chunk, cosine similarity)` of every vector with the unit `query`.
    pub fn scores<'a>(&'a self, query: &'a [f32]) -> impl Iterator<Item = (u32, f32)> + 'a {
        let d = self.dims as usize;
        let q = &query[..d.min(query.len())];
        let offset: f32 = (0..self.base.len().min(q.len()))
            .map(|j| q[j] * self.base_value(j))
            .sum();
        self.values
            .chunks_exact(d)
            .zip(self.chunks.iter().zip(&self.scales))
            .map(move |(v, (&c, &s))| {
                let mut acc = 0f32;
                for (a, &b) in q.iter().zip(v) {
                    acc += a * b as f32;
                }
                (c, offset + acc * s)
            })
    }
}

impl VectorShard {
    fn base_value(&self, j: usize) -> f32 {
        self.base
            .get(j)
            .map_or(0.0, |&b| b as f32 * self.base_scale)
    }
}

/// A stored 4-bit two's-complement value.
fn nibble(b: u8) -> i8 {
    ((b << 4) as i8) >> 4
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
        let matrix = read_finite(&mut r, n, "projection")?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantize::write_quantized;

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
        let rows: Vec<&[f32]> = raw.iter().map(Vec::as_slice).collect();
        let shard = VectorShard::quantize(dims as u32, vec![3, 4, 9, 10, 200], &rows);
        assert!(shard.values.iter().all(|v| (-7..=7).contains(v)));
        let file = shard.encode();
        let back = VectorShard::decode(&file).unwrap();
        assert_eq!(back, shard);
        // Even five unrelated 8-d vectors (residuals as large as the vectors) keep their order.
        let q = &raw[2];
        let mut exact: Vec<(u32, f32)> = shard
            .chunks
            .iter()
            .copied()
            .zip(raw.iter().map(|v| dot_f32(q, v)))
            .collect();
        let mut stored: Vec<(u32, f32)> = back.scores(q).collect();
        for list in [&mut exact, &mut stored] {
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        assert_eq!(exact[0].0, stored[0].0);
        for (i, v) in raw.iter().enumerate() {
            let d = back.vector(i);
            assert!(
                dot_f32(&d, v) > 0.95,
                "vector {i} dequantizes close to itself"
            );
        }
        let dir = VectorDir {
            model: "m".into(),
            dims: 2,
            probe_dims: 2,
            centroids: vec![1.0, 0.0, 0.0, 1.0, -1.0, 0.0],
            partition_prefix: "v/abc-".into(),
            partitions: (0..3)
                .map(|i| PartitionEntry {
                    file: partition_file("v/abc-", i),
                    count: 1,
                })
                .collect(),
        };
        let back = VectorDir::decode(&dir.encode()).unwrap();
        assert_eq!(back.partitions, dir.partitions);
        assert_eq!(back.partitions[2].file, "v/abc-2.bin");
        assert_eq!(back.partition_prefix, dir.partition_prefix);
        for (a, b) in back.centroids.iter().zip(&dir.centroids) {
            assert!((a - b).abs() < 0.1, "centroid value {a} for {b}");
        }
        assert_eq!(back.probe(&[0.1, 0.9], 2), vec![1, 0]);
    }

    /// Issue 4: a 10,000-page site's directory is every vector query's first file. Format v5 stores
    /// its centroids as 4-bit residuals from their mean (half of v4's int8) and names partitions by one
    /// prefix (no per-partition hash): 680 centroids of 64 dimensions fit 25 KB, not 54 KB.
    #[test]
    fn issue_4_directory_of_a_large_site_is_half_the_bytes() {
        let (dims, n) = (64usize, 680usize);
        let mut seed = 0x2545_f491u32;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32 - 0.5
        };
        let centroids: Vec<f32> = (0..n * dims).map(|_| rand() * 0.3).collect();
        let dir = VectorDir {
            model: "all-MiniLM-L6-v2".into(),
            dims: 128,
            probe_dims: dims as u32,
            centroids: centroids.clone(),
            partition_prefix: "v/0123456789ab-".into(),
            partitions: (0..n)
                .map(|i| PartitionEntry {
                    file: partition_file("v/0123456789ab-", i),
                    count: 33,
                })
                .collect(),
        };
        let file = dir.encode();
        assert!(file.len() < 26 * 1024, "{} bytes", file.len());
        let back = VectorDir::decode(&file).unwrap();
        // Probing ranks centroids as the exact ones do: the nearest of a perturbed centroid is itself,
        // and the top 24 overlap the exact top 24 almost entirely.
        let query: Vec<f32> = centroids[5 * dims..6 * dims].to_vec();
        let exact = {
            let mut s: Vec<(usize, f32)> = centroids
                .chunks_exact(dims)
                .map(|c| dot_f32(c, &query))
                .enumerate()
                .collect();
            s.sort_by(|a, b| b.1.total_cmp(&a.1));
            s.into_iter().take(24).map(|(i, _)| i).collect::<Vec<_>>()
        };
        let probed = back.probe(&query, 24);
        assert_eq!(probed[0], 5);
        let overlap = probed.iter().filter(|i| exact.contains(i)).count();
        assert!(overlap >= 21, "overlap {overlap} of 24");
    }

    /// Format v4 directories (int8 centroids, one named file per partition) still read.
    #[test]
    fn v4_int8_directories_still_read() {
        let mut w = ByteWriter::new();
        w.str("m");
        w.varint(4);
        w.varint(2);
        w.varint(2);
        for (name, count) in [("v/aaaaaaaaaaaa.bin", 3), ("v/bbbbbbbbbbbb.bin", 4)] {
            w.str(name);
            w.varint(count);
        }
        for c in [[1.0f32, 0.0], [0.0, 1.0]] {
            let (s, q) = quantize(&c);
            w.f32(s);
            w.raw(&q.iter().map(|&v| v as u8).collect::<Vec<u8>>());
        }
        let dir = VectorDir::decode_versioned(&w.into_inner(), 4).unwrap();
        assert_eq!(dir.partitions[1].file, "v/bbbbbbbbbbbb.bin");
        assert_eq!(dir.partitions[1].count, 4);
        assert!(dir.partition_prefix.is_empty());
        assert_eq!(dir.probe(&[0.0, 1.0, 0.0, 0.0], 1), vec![1]);
    }

    /// Issue 4: a partition of 128-d unit vectors around a common direction, as k-means makes them,
    /// stored as 4-bit residuals, scores within 0.02 of the exact cosine (0.005 on average).
    #[test]
    fn issue_4_residual_4_bit_scores_stay_close_to_exact() {
        let dims = 128;
        let mut seed = 0x9e37_79b9u32;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32 - 0.5
        };
        let unit = |mut v: Vec<f32>| {
            let n = dot_f32(&v, &v).sqrt();
            v.iter_mut().for_each(|x| *x /= n);
            v
        };
        let center = unit((0..dims).map(|_| rand()).collect());
        let raw: Vec<Vec<f32>> = (0..32)
            .map(|_| unit(center.iter().map(|c| c + 0.12 * rand()).collect()))
            .collect();
        let rows: Vec<&[f32]> = raw.iter().map(Vec::as_slice).collect();
        let shard = VectorShard::quantize(dims as u32, (0..32).collect(), &rows);
        let back = VectorShard::decode(&shard.encode()).unwrap();
        let (mut worst, mut sum) = (0f32, 0f32);
        for query in [
            center.clone(),
            unit((0..dims).map(|_| rand()).collect()),
            raw[7].clone(),
        ] {
            for ((_, s), v) in back.scores(&query).zip(&raw) {
                let err = (s - dot_f32(&query, v)).abs();
                worst = worst.max(err);
                sum += err;
            }
        }
        assert!(worst < 0.02, "worst error {worst}");
        assert!(sum / 96.0 < 0.005, "mean error {}", sum / 96.0);
    }

    /// Format v3 partitions (int8, absolute) still read and score.
    #[test]
    fn v3_int8_vector_shards_still_read() {
        let v = [0.6f32, 0.8, 0.0, 0.0];
        let (s, q) = quantize(&v);
        let mut w = ByteWriter::new();
        w.varint(4);
        w.varint(1);
        w.varint(5);
        write_quantized(&mut w, &[s], &q);
        let shard = VectorShard::decode_versioned(&w.into_inner(), 3).unwrap();
        assert!(shard.base.is_empty());
        assert_eq!(shard.chunks, vec![5]);
        let (_, score) = shard.scores(&v).next().unwrap();
        assert!((score - 1.0).abs() < 0.01);
    }

    #[test]
    fn damaged_vector_shards_are_typed_errors() {
        let shard = VectorShard::quantize(
            4,
            vec![1, 2],
            &[&[0.5, 0.5, 0.5, 0.5], &[1.0, 0.0, 0.0, 0.0]],
        );
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
        let dir = VectorDir {
            model: "m".into(),
            dims: 3,
            probe_dims: 3,
            centroids: vec![1.0, 0.0, 0.0, 0.0, 0.6, 0.8],
            partition_prefix: "v/p-".into(),
            partitions: (0..2)
                .map(|i| PartitionEntry {
                    file: partition_file("v/p-", i),
                    count: 2,
                })
                .collect(),
        };
        let raw = envelope::open(&dir.encode(), ShardKind::VectorDir).unwrap();
        for cut in 0..raw.len() {
            assert!(VectorDir::decode_payload(&raw[..cut]).is_err(), "cut {cut}");
        }
        // A prefix that would escape the index directory is refused.
        let mut w = ByteWriter::new();
        w.str("m");
        w.varint(3);
        w.varint(3);
        w.str("../x-");
        w.varint(0);
        assert!(VectorDir::decode_payload(&w.into_inner()).is_err());
    }
}
