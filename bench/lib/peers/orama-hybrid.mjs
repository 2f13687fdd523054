// Orama hybrid with the same vectors aidocs ranks with: each page's vector is the mean of its chunks'
// all-MiniLM-L6-v2 vectors (`aidocs-index pages --vectors`), each query's the full model's
// (`aidocs-index embed`). Weights 0.55 text / 0.45 vector, the BM25 weight aidocs' min-max fusion
// uses; no similarity floor (Orama's default 0.8 drops almost every MiniLM neighbour).
import { create, insertMultiple, search, save, load as restore } from '@orama/orama';
import { STOP_WORDS } from './orama.mjs';

export const name = 'Orama hybrid (BM25 + the same MiniLM vectors)';
export const needsVectors = true;
const components = { tokenizer: { stemming: true, stopWords: STOP_WORDS } };
const schemaFor = (dims) => ({ id: 'string', title: 'string', text: 'string', embedding: `vector[${dims}]` });

export async function build(docs) {
  const dims = docs.find((d) => d.vector)?.vector.length ?? 384;
  const db = create({ schema: schemaFor(dims), components });
  const zero = new Array(dims).fill(0);
  await insertMultiple(db, docs.map(({ id, title, text, vector }) => ({ id, title, text, embedding: vector ?? zero })), 1000);
  return JSON.stringify({ dims, db: await save(db) });
}

export async function load(text) {
  const { dims, db: raw } = JSON.parse(text);
  const db = create({ schema: schemaFor(dims), components });
  await restore(db, raw);
  return {
    /** `vector`: the query's full-model vector; without one Orama ranks by BM25 alone. */
    async search(q, vector) {
      const params = { term: q, properties: ['title', 'text'], boost: { title: 2 }, limit: 10, tolerance: 1 };
      const r = vector
        ? await search(db, { ...params, mode: 'hybrid', vector: { value: vector, property: 'embedding' }, similarity: 0, hybridWeights: { text: 0.55, vector: 0.45 } })
        : await search(db, params);
      return r.hits.map((h) => String(h.document.id));
    },
  };
}
