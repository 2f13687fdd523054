//! `aidocs-wasm-encoder`: the full query encoder for Node and edge runtimes.
//!
//! Here are the model's `config.json`, `vocab.txt` and `model.safetensors` bytes; give me a query's
//! embedding, computed by `aidocs-embed`, the code the indexer embedded the chunks with. The search
//! module takes it with `begin(…, vector)` and ranks against the stored vectors through the index's
//! projection: `--encoder full`, where the 90 MB of weights do not matter (a server, a CLI, an edge
//! runtime with the memory for it). Browsers use the index's static encoder instead.
//!
//! Errors cross to JS as one string, `code \x1f file \x1f message`, like the search module's.

use aidocs_embed::{FullModel, ModelError};
use wasm_bindgen::prelude::*;

fn js_err(e: ModelError) -> JsValue {
    let (code, file) = match &e {
        ModelError::Config(_) => ("bad_model", "config.json"),
        ModelError::Vocab(_) => ("bad_model", "vocab.txt"),
        ModelError::Weights(_) => ("bad_model", "model.safetensors"),
        ModelError::Candle(_) => ("embed_failed", ""),
    };
    JsValue::from_str(&format!("{code}\u{1f}{file}\u{1f}{e}"))
}

/// The loaded model.
#[wasm_bindgen]
pub struct FullEncoder {
    model: FullModel,
}

#[wasm_bindgen]
impl FullEncoder {
    /// Loads the model from the text of `config.json` and `vocab.txt` and the bytes of
    /// `model.safetensors` (F32).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str, vocab: &str, weights: Vec<u8>) -> Result<FullEncoder, JsValue> {
        FullModel::from_bytes(config, vocab, weights)
            .map(|model| FullEncoder { model })
            .map_err(js_err)
    }

    /// The model's name, as index manifests record it.
    #[wasm_bindgen(getter, js_name = modelName)]
    pub fn model_name(&self) -> String {
        aidocs_embed::MODEL_NAME.to_owned()
    }

    /// The embedding width (384).
    #[wasm_bindgen(getter)]
    pub fn dims(&self) -> u32 {
        self.model.dims as u32
    }

    /// The unit embedding of `text` (its first 256 tokens).
    pub fn embed(&self, text: &str) -> Result<Vec<f32>, JsValue> {
        let mut out = self.model.embed(&[text]).map_err(js_err)?;
        Ok(out.pop().unwrap_or_default())
    }
}
