//! Little-endian varint writer and a bounds-checked reader: the only byte codec of the shard payloads.
//!
//! Hand-written rather than serde-based so that the wasm side stays small, the encoding is obviously
//! deterministic, and every read is validated (a truncated or hostile payload is a typed error, never a panic).

use crate::error::FormatError;

/// Appends values to a growing buffer.
#[derive(Default, Debug)]
pub struct ByteWriter {
    buf: Vec<u8>,
}

impl ByteWriter {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    pub fn varint(&mut self, mut v: u64) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.buf.push(byte);
                return;
            }
            self.buf.push(byte | 0x80);
        }
    }
    pub fn f32(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.buf.extend_from_slice(b);
    }
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    pub fn raw(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
}

/// Reads values back, checking every length against what is left.
#[derive(Debug)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> ByteReader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }
    pub fn is_done(&self) -> bool {
        self.pos == self.data.len()
    }
    /// Fails unless the whole payload was consumed: trailing bytes mean a writer/reader mismatch.
    pub fn finish(&self, what: &'static str) -> Result<(), FormatError> {
        if self.is_done() {
            Ok(())
        } else {
            Err(FormatError::Invalid {
                what,
                detail: "trailing bytes after the last record",
            })
        }
    }
    pub fn u8(&mut self, what: &'static str) -> Result<u8, FormatError> {
        let b = *self
            .data
            .get(self.pos)
            .ok_or(FormatError::Truncated { what })?;
        self.pos += 1;
        Ok(b)
    }
    pub fn varint(&mut self, what: &'static str) -> Result<u64, FormatError> {
        let mut out: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.u8(what)?;
            let low = (b & 0x7f) as u64;
            if shift == 63 && low > 1 {
                return Err(FormatError::Invalid {
                    what,
                    detail: "varint overflows 64 bits",
                });
            }
            out |= low << shift;
            if b & 0x80 == 0 {
                return Ok(out);
            }
        }
        Err(FormatError::Invalid {
            what,
            detail: "varint longer than 10 bytes",
        })
    }
    /// A varint that must fit a `u32` count or ordinal.
    pub fn varint_u32(&mut self, what: &'static str) -> Result<u32, FormatError> {
        let v = self.varint(what)?;
        u32::try_from(v).map_err(|_| FormatError::Invalid {
            what,
            detail: "value does not fit 32 bits",
        })
    }
    /// A count of records, each at least `min_record_bytes` long: rejects counts the payload cannot hold
    /// so that a hostile count never drives a huge allocation.
    pub fn count(
        &mut self,
        what: &'static str,
        min_record_bytes: usize,
    ) -> Result<usize, FormatError> {
        let n = self.varint(what)?;
        let max = (self.remaining() / min_record_bytes.max(1)) as u64;
        if n > max {
            return Err(FormatError::Invalid {
                what,
                detail: "record count larger than the payload can hold",
            });
        }
        Ok(n as usize)
    }
    pub fn f32(&mut self, what: &'static str) -> Result<f32, FormatError> {
        let b = self.take(4, what)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], FormatError> {
        if n > self.remaining() {
            return Err(FormatError::Truncated { what });
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    pub fn bytes(&mut self, what: &'static str) -> Result<&'a [u8], FormatError> {
        let n = self.varint(what)?;
        if n > self.remaining() as u64 {
            return Err(FormatError::Truncated { what });
        }
        self.take(n as usize, what)
    }
    pub fn str(&mut self, what: &'static str) -> Result<&'a str, FormatError> {
        let b = self.bytes(what)?;
        core::str::from_utf8(b).map_err(|_| FormatError::InvalidUtf8 { what })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_roundtrip() {
        let values = [
            0u64,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u32::MAX as u64,
            u64::MAX,
        ];
        let mut w = ByteWriter::new();
        for v in values {
            w.varint(v);
        }
        let buf = w.into_inner();
        let mut r = ByteReader::new(&buf);
        for v in values {
            assert_eq!(r.varint("v").unwrap(), v);
        }
        r.finish("v").unwrap();
    }

    #[test]
    fn truncated_and_hostile_inputs_are_errors() {
        let mut r = ByteReader::new(&[0x80, 0x80]);
        assert!(matches!(r.varint("v"), Err(FormatError::Truncated { .. })));
        let mut r = ByteReader::new(&[0xff; 11]);
        assert!(r.varint("v").is_err());
        let mut r = ByteReader::new(&[0xff, 0xff, 0xff, 0x7f]);
        assert!(r.count("n", 1).is_err());
        let mut r = ByteReader::new(&[5, b'a']);
        assert!(matches!(r.str("s"), Err(FormatError::Truncated { .. })));
        let mut r = ByteReader::new(&[2, 0xff, 0xfe]);
        assert!(matches!(r.str("s"), Err(FormatError::InvalidUtf8 { .. })));
    }
}
