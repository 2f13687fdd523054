// MiniSearch with its search-box settings: the last word a prefix, fuzzy 0.2, title boosted.
import MiniSearch from 'minisearch';

export const name = 'MiniSearch (prefix, fuzzy 0.2)';
const options = { fields: ['title', 'text'], storeFields: [], searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.2 } };

export function build(docs) {
  const ms = new MiniSearch(options);
  ms.addAll(docs);
  return JSON.stringify(ms);
}

export function load(text) {
  const ms = MiniSearch.loadJSON(text, options);
  return { search: async (q) => ms.search(q).slice(0, 10).map((r) => String(r.id)) };
}
