//! Chunk vectors → the vector directory and partition shards of format v2 (see `aidocs_core::vectors`).
//!
//! Partitioning is spherical k-means with a deterministic start (evenly spaced chunks) and a fixed
//! number of rounds, so the same vectors always give the same files.

use aidocs_core::vectors::{quantize, PartitionEntry, VectorDir, VectorRef, VectorShard};
use rayon::prelude::*;

/// Vectors for every chunk, in chunk-ordinal order.
pub struct ChunkVectors {
    pub model: String,
    pub dims: usize,
    pub rows: Vec<Vec<f32>>,
    /// Short texts (titles, headings) embedded for the static query encoder's fit.
    pub short: crate::encoder::ShortExamples,
}

/// Target chunks per partition: about 25 KB per shard at 384 dimensions.
pub const PARTITION_TARGET: usize = 64;
const KMEANS_ROUNDS: usize = 12;

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn nearest(centroids: &[Vec<f32>], v: &[f32]) -> usize {
    let mut best = (0usize, f32::NEG_INFINITY);
    for (i, c) in centroids.iter().enumerate() {
        let s = dot(c, v);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

/// Assigns each row to one of about `rows / target` partitions; returns the centroids and assignment.
pub fn partition(rows: &[Vec<f32>], dims: usize, target: usize) -> (Vec<Vec<f32>>, Vec<usize>) {
    let n = rows.len();
    let k = n.div_ceil(target.max(1)).clamp(1, 4096).min(n.max(1));
    let mut centroids: Vec<Vec<f32>> = (0..k).map(|i| rows[i * n / k].clone()).collect();
    let mut assign = vec![0usize; n];
    for _ in 0..KMEANS_ROUNDS {
        assign = rows.par_iter().map(|v| nearest(&centroids, v)).collect();
        let mut sums = vec![vec![0f32; dims]; k];
        let mut counts = vec![0usize; k];
        for (v, &a) in rows.iter().zip(&assign) {
            counts[a] += 1;
            for (s, x) in sums[a].iter_mut().zip(v) {
                *s += x;
            }
        }
        for (i, s) in sums.iter_mut().enumerate() {
            let norm = dot(s, s).sqrt();
            if counts[i] > 0 && norm > 0.0 {
                s.iter_mut().for_each(|x| *x /= norm);
                centroids[i] = std::mem::take(s);
            }
        }
    }
    (centroids, assign)
}

/// The vector files and the manifest's reference. `name` turns (dir, bytes) into a content-hashed path.
pub fn export_vectors(
    vectors: &ChunkVectors,
    target: usize,
    name: impl Fn(&str, &[u8]) -> String,
) -> (VectorRef, Vec<(String, Vec<u8>)>) {
    let (centroids, assign) = partition(&vectors.rows, vectors.dims, target);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); centroids.len()];
    for (chunk, &a) in assign.iter().enumerate() {
        members[a].push(chunk as u32);
    }
    let mut files = Vec::new();
    let mut partitions = Vec::new();
    let mut kept = Vec::new();
    for (ci, chunks) in members.into_iter().enumerate() {
        if chunks.is_empty() {
            continue; // an empty cluster gets no shard and no centroid
        }
        let mut shard = VectorShard {
            dims: vectors.dims as u32,
            chunks: Vec::with_capacity(chunks.len()),
            scales: Vec::with_capacity(chunks.len()),
            values: Vec::with_capacity(chunks.len() * vectors.dims),
        };
        for &c in &chunks {
            let (s, q) = quantize(&vectors.rows[c as usize]);
            shard.chunks.push(c);
            shard.scales.push(s);
            shard.values.extend(q);
        }
        let bytes = shard.encode();
        let file = name("v", &bytes);
        partitions.push(PartitionEntry {
            file: file.clone(),
            count: chunks.len() as u32,
        });
        kept.extend_from_slice(&centroids[ci]);
        files.push((file, bytes));
    }
    let dir = VectorDir {
        model: vectors.model.clone(),
        dims: vectors.dims as u32,
        centroids: kept,
        partitions,
    };
    let bytes = dir.encode();
    let file = name("v", &bytes);
    files.push((file.clone(), bytes));
    (
        VectorRef {
            file,
            model: vectors.model.clone(),
            dims: vectors.dims as u32,
            count: vectors.rows.len() as u32,
            term_rows: None,
        },
        files,
    )
}
