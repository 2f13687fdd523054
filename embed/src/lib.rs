//! `aidocs-embed`: the full embedding model, all-MiniLM-L6-v2 (BERT, 6 layers, 384 dimensions, mean
//! pooled and normalized), run with candle.
//!
//! Here are the model's `config.json`, `vocab.txt` and weights; give me unit vectors for texts. The
//! indexer embeds every chunk with it at build time, and the `aidocs-wasm-encoder` module runs this very
//! code in Node and edge runtimes to embed queries exactly (`--encoder full`), so a query vector is
//! the same computation on both sides. It does no I/O: callers hand it bytes (or a memory map).
//! Tokenization is [`wordpiece`], BERT's uncased WordPiece with the model's own tokenizer's ids.

pub mod wordpiece;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use wordpiece::WordPiece;

pub use candle_core;
pub use candle_nn;

/// Sequences are cut to the window the model was trained with (sentence-transformers' max_seq_length).
pub const MAX_TOKENS: usize = 256;
/// The model the index's vectors come from (the manifest records it; a query encoder must match).
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";
/// Texts per forward pass, at most.
const BATCH: usize = 32;
/// The version of how [`FullModel::embed_ids`] computes a vector's bits, part of the vector cache's
/// key: 2 since sequences are batched unpadded (issue 20), so vectors cached by padded batches are
/// embedded again rather than mixed with the new bits.
pub const VECTOR_VERSION: u32 = 2;

/// Why the model could not be loaded or run. The variants name the file the caller read.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("config.json: not a BERT config: {0}")]
    Config(String),
    #[error("vocab.txt: {0}")]
    Vocab(#[from] wordpiece::VocabError),
    #[error("model.safetensors: {0}")]
    Weights(String),
    #[error("embedding failed: {0}")]
    Candle(#[from] candle_core::Error),
}

/// What `config.json` and `vocab.txt` say, read before the weights.
struct SmallFiles {
    config: Config,
    dims: usize,
    vocab: WordPiece,
}

impl SmallFiles {
    fn parse(config_text: &str, vocab_text: &str) -> Result<Self, ModelError> {
        let value: serde_json::Value =
            serde_json::from_str(config_text).map_err(|e| ModelError::Config(e.to_string()))?;
        let dims = value
            .get("hidden_size")
            .and_then(|h| h.as_u64())
            .ok_or_else(|| ModelError::Config("no hidden_size".into()))?
            as usize;
        let config: Config =
            serde_json::from_value(value).map_err(|e| ModelError::Config(e.to_string()))?;
        Ok(SmallFiles {
            config,
            dims,
            vocab: WordPiece::from_vocab(vocab_text)?,
        })
    }
}

/// The loaded model.
pub struct FullModel {
    model: BertModel,
    vocab: WordPiece,
    device: Device,
    /// The embedding width (`hidden_size`, 384).
    pub dims: usize,
}

impl FullModel {
    /// Builds the model from its config, vocabulary and a variable builder over the weights (a memory
    /// map natively: see [`VarBuilder::from_mmaped_safetensors`]).
    pub fn new(config_text: &str, vocab_text: &str, vb: VarBuilder) -> Result<Self, ModelError> {
        Self::assemble(SmallFiles::parse(config_text, vocab_text)?, vb)
    }

    /// Builds the model from the bytes of `model.safetensors` (Node and edge runtimes, tests).
    pub fn from_bytes(
        config_text: &str,
        vocab_text: &str,
        weights: Vec<u8>,
    ) -> Result<Self, ModelError> {
        // The small files are read first, so their errors are not hidden behind the weights'.
        let small = SmallFiles::parse(config_text, vocab_text)?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| ModelError::Weights(e.to_string()))?;
        Self::assemble(small, vb)
    }

    fn assemble(small: SmallFiles, vb: VarBuilder) -> Result<Self, ModelError> {
        let device = vb.device().clone();
        let model =
            BertModel::load(vb, &small.config).map_err(|e| ModelError::Weights(e.to_string()))?;
        Ok(FullModel {
            model,
            vocab: small.vocab,
            device,
            dims: small.dims,
        })
    }

    pub fn vocab(&self) -> &WordPiece {
        &self.vocab
    }

    /// Unit vectors for `texts`, in order ([`Self::embed_ids`]).
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, ModelError> {
        let encoded: Vec<Vec<u32>> = texts
            .iter()
            .map(|t| self.vocab.encode(t, MAX_TOKENS))
            .collect();
        self.embed_ids(&encoded)
    }

    /// Unit vectors for already tokenized sequences (`[CLS] … [SEP]`).
    ///
    /// A sequence's vector does not depend on what it is embedded with: sequences run together only
    /// with sequences of their own length, so nothing is padded (padding changes the order in which
    /// the attention sums, hence the last bits of a vector), and a build embeds a text to the same
    /// bits whether the cache held its neighbours or not.
    pub fn embed_ids(&self, encoded: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, ModelError> {
        let mut order: Vec<usize> = (0..encoded.len()).collect();
        order.sort_by_key(|&i| encoded[i].len());
        let mut out = vec![Vec::new(); encoded.len()];
        let mut rest = order.as_slice();
        while let Some(&first) = rest.first() {
            let len = encoded[first].len();
            let n = (rest.iter())
                .take(BATCH)
                .take_while(|&&i| encoded[i].len() == len)
                .count();
            let (batch, tail) = rest.split_at(n);
            rest = tail;
            let ids: Vec<u32> = batch
                .iter()
                .flat_map(|&i| encoded[i].iter().copied())
                .collect();
            let ids = Tensor::from_vec(ids, (batch.len(), len), &self.device)?;
            let mask = ids.ones_like()?;
            let types = ids.zeros_like()?;
            let hidden = self.model.forward(&ids, &types, Some(&mask))?; // (b, len, d)

            // Summed and divided, as the padded batches did (a product by 1 / len differs).
            let counts = Tensor::full(len as f32, (batch.len(), 1), &self.device)?;
            let mean = hidden.sum(1)?.broadcast_div(&counts)?; // (b, d)
            let rows: Vec<Vec<f32>> = mean.to_vec2()?;
            for (&i, mut v) in batch.iter().zip(rows) {
                normalize(&mut v);
                out[i] = v;
            }
        }
        Ok(out)
    }
}

/// Scales `v` to unit length (a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}
