//! Int8 quantisation as every vector structure stores it (vector partitions, term rows), and the
//! checks their readers share: one place, so vectors and term rows do not import each other for it.

use crate::bytes::{ByteReader, ByteWriter};
use crate::error::{invalid, ShardError};

/// Dimensionality every vector structure accepts.
pub(crate) fn check_dims(dims: u32) -> Result<(), ShardError> {
    if dims == 0 || dims > 4096 {
        return Err(invalid("vector dims", "not in 1..=4096"));
    }
    Ok(())
}
/// `n` f32 values, each finite (the caller has checked that `n` fits what remains).
pub(crate) fn read_finite(
    r: &mut ByteReader<'_>,
    n: usize,
    what: &'static str,
) -> Result<Vec<f32>, ShardError> {
    (0..n)
        .map(|_| {
            let x = r.f32(what)?;
            if !x.is_finite() {
                return Err(invalid(what, "not finite"));
            }
            Ok(x)
        })
        .collect()
}
/// One quantization scale: `x ≈ scale · q` needs a finite, non-negative scale.
pub(crate) fn read_scale(r: &mut ByteReader<'_>, what: &'static str) -> Result<f32, ShardError> {
    let s = r.f32(what)?;
    if !s.is_finite() || s < 0.0 {
        return Err(invalid(what, "not a finite non-negative number"));
    }
    Ok(s)
}
pub(crate) fn read_scales(r: &mut ByteReader<'_>, n: usize) -> Result<Vec<f32>, ShardError> {
    (0..n).map(|_| read_scale(r, "scale")).collect()
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
    let scales = read_scales(r, n)?;
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
