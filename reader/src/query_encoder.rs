//! Query vectors: a query text in an index's vector space, by the full model (as the build embedded
//! the chunks) or by the index's own static encoder (what the browser runs).

use aidocs_embed::FullModel;

/// Turns query texts into vectors in an index's vector space.
pub enum QueryEncoder {
    /// The full model, as at build time: exact, about 100 MB of weights (native, Node, edge).
    Full(Box<FullModel>),
    /// The index's own fitted term rows (`aidocs_core::term_rows`), what the browser runs: a few
    /// kilobytes per query, no model.
    Static,
}

/// Why a query could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error(transparent)]
    Model(#[from] aidocs_embed::ModelError),
    #[error(transparent)]
    Index(#[from] crate::local_index::QueryError),
}

impl QueryEncoder {
    pub fn name(&self) -> &'static str {
        match self {
            QueryEncoder::Full(_) => "full",
            QueryEncoder::Static => "static",
        }
    }

    /// What a query session ranks each text with: the static encoder (which the session runs over
    /// the index's term rows, as the browser does), or the full model's embedding (which it projects
    /// into the stored space).
    pub fn query_vectors(
        &self,
        texts: &[&str],
    ) -> Result<Vec<aidocs_core::QueryVector>, EncodeError> {
        Ok(match self {
            QueryEncoder::Full(e) => e
                .embed(texts)?
                .into_iter()
                .map(aidocs_core::QueryVector::Model)
                .collect(),
            QueryEncoder::Static => vec![aidocs_core::QueryVector::Static; texts.len()],
        })
    }

    /// One vector per text, in the stored space, as a session ranks with it
    /// ([`LocalIndex::stored_vector`](crate::local_index::LocalIndex::stored_vector)); `None` where
    /// the vector has no direction (the static encoder knows none of the text's terms, as `opts`
    /// plans them: typo corrections included).
    pub fn encode(
        &self,
        index: &crate::local_index::LocalIndex,
        texts: &[&str],
        opts: &aidocs_core::SearchOptions,
    ) -> Result<Vec<Option<Vec<f32>>>, EncodeError> {
        self.query_vectors(texts)?
            .into_iter()
            .zip(texts)
            .map(|(v, t)| Ok(index.stored_vector(t, v, opts)?))
            .collect()
    }
}
