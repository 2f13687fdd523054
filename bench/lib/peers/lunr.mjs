// Lunr: title boosted; queries through the query builder (claims with ':' or '-' stay plain text),
// the last term also as a trailing wildcard, as a search box would do. Stop words are dropped first,
// as lunr's own pipeline would.
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
      const run = (wildcard) =>
        idx.query((b) => {
          terms.forEach((t, i) => {
            // A stop word's clause is left out, as lunr's own pipeline would drop it.
            if (lunr.stopWordFilter(t) !== undefined) b.term(t, {});
            if (wildcard && i === terms.length - 1) b.term(t, { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 });
          });
        });
      let r;
      try {
        r = run(true);
      } catch {
        // lunr 2.3.9 throws when a wildcard expands to a term of its token set missing from its
        // inverted index (SciFact's `adam10.93`); a search box would retry without the wildcard.
        r = run(false);
      }
      return r.slice(0, 10).map((x) => x.ref);
    },
  };
}
