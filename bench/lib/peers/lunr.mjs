// Lunr: title boosted; queries through the query builder (claims with ':' or '-' stay plain text),
// the last term also as a trailing wildcard, as a search box would do.
import lunr from 'lunr';

export const name = 'Lunr';

export function build(docs) {
  const idx = lunr(function () {
    this.ref('id');
    this.field('title', { boost: 2 });
    this.field('text');
    for (const d of docs) this.add(d);
  });
  return JSON.stringify(idx);
}

export function load(text) {
  const idx = lunr.Index.load(JSON.parse(text));
  return {
    async search(q) {
      const terms = lunr.tokenizer(q).map((t) => t.toString());
      const r = idx.query((b) => {
        terms.forEach((t, i) => {
          b.term(t, {});
          if (i === terms.length - 1) b.term(t, { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 });
        });
      });
      return r.slice(0, 10).map((x) => x.ref);
    },
  };
}
