// The corpora: SciFact (judged), the two real Mintlify sites, and sites of 10,000 and 30,000 pages
// assembled from the real text in ../shared/data (scripts/make-corpus.py: SciFact abstracts, the
// Mintlify sites' sections, GitHub's API operations; text repeats past the unique pages, it says so).
// Each engine gets the same pages: the text aidocs' ingestion reads (`aidocs-index pages`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexBin } from './engines.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const data = join(repo, '../shared/data');
const jsonl = (text) => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

function run(argv, what) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return r;
}

/** SciFact test qrels: qid → Map(doc id → relevance). */
function scifactQrels() {
  const qrels = new Map();
  for (const line of readFileSync(join(data, 'scifact/qrels/test.tsv'), 'utf8').trim().split('\n').slice(1)) {
    const [q, d, r] = line.split('\t');
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q).set(d, Number(r));
  }
  return qrels;
}

/** The judged claims as typed: clean, one deterministic one-edit typo each, last word cut to 4 letters. */
function claimVariants(qrels) {
  const variant = (args) =>
    jsonl(run([indexBin(), 'variants', '--queries', join(data, 'scifact/queries.jsonl'), ...args], 'aidocs-index variants').stdout)
      .filter((q) => qrels.has(String(q.id)))
      .map((q) => [String(q.id), q.text]);
  return { clean: variant([]), typo: variant(['--typo']), prefix: variant(['--cut-last-word', '4']) };
}

/** Known-item queries for an unjudged site: 100 English page titles, sampled by hash; every page with that title counts. */
function titleQueries(pages) {
  const byTitle = new Map();
  for (const p of pages) {
    const t = p.title.trim().toLowerCase();
    if (!byTitle.has(t)) byTitle.set(t, []);
    byTitle.get(t).push(p);
  }
  const candidates = [...byTitle.entries()].filter(([t, ps]) => t.split(/\s+/).length >= 2 && ps.some((p) => !p.language || p.language === 'en'));
  const h = (s) => createHash('sha256').update(s).digest('hex');
  candidates.sort((a, b) => (h(a[0]) < h(b[0]) ? -1 : 1));
  const qrels = new Map();
  const clean = candidates.slice(0, 100).map(([t, ps], i) => {
    qrels.set(`t${i}`, new Map(ps.map((p) => [p.id, 1])));
    return [`t${i}`, t];
  });
  return { variants: { clean }, qrels };
}

export const CORPORA = {
  scifact: { title: 'SciFact', typed: ['vitamin d deficiency and cancer risk', 'vitamin d defficiency and cancer risk'] },
  'mintlify-docs': { title: 'mintlify-docs (real Mintlify site, en/es/fr/zh)', typed: ['set up a custom domain', 'analytcs api'] },
  'pipecat-docs': { title: 'pipecat-docs (real Mintlify site)', typed: ['speech to text service', 'interupt the bot'] },
  'site-10k': { title: '10,000 pages', pages: 10000, typed: ['how to authenticate api requests', 'how to authentcate api requests'] },
  'site-30k': { title: '30,000 pages', pages: 30000, typed: ['how to authenticate api requests', 'how to authentcate api requests'] },
};

/**
 * Prepares a corpus in `work`: its input for aidocs, the pages file every other engine reads (with
 * page vectors when `vectors`), its query variants (`[id, text, vector?]`) and qrels.
 */
export function prepare(key, { work, cache, vectors }) {
  const spec = CORPORA[key];
  const dir = join(work, key);
  mkdirSync(dir, { recursive: true });
  let input;
  let note = '';
  if (key === 'scifact') input = join(data, 'scifact/docs.jsonl');
  else if (spec.pages) {
    input = join(dir, 'site');
    if (!existsSync(join(input, `p${String(Math.floor((spec.pages - 1) / 1000)).padStart(2, '0')}`))) {
      const r = run(['python3', join(repo, 'scripts/make-corpus.py'), String(spec.pages), input], 'make-corpus');
      note = r.stderr.trim();
    }
    note ||= existsSync(join(dir, 'note.txt')) ? readFileSync(join(dir, 'note.txt'), 'utf8') : '';
    writeFileSync(join(dir, 'note.txt'), note);
  } else input = join(data, 'sites', key);
  const corpusCache = join(cache, key);
  mkdirSync(corpusCache, { recursive: true });
  const pagesFile = join(dir, vectors ? 'pages-vectors.jsonl' : 'pages.jsonl');
  const args = [indexBin(), 'pages', input];
  if (vectors) args.push('--vectors', '--cache-dir', corpusCache);
  writeFileSync(pagesFile, run(args, 'aidocs-index pages').stdout);
  const pages = jsonl(readFileSync(pagesFile, 'utf8'));
  let variants;
  let qrels;
  let judged;
  if (key === 'scifact' || spec.pages) {
    const sf = scifactQrels();
    variants = claimVariants(sf);
    if (key === 'scifact') {
      qrels = sf;
      judged = 'SciFact test qrels';
    } else {
      // The claims at scale: a SciFact abstract is page i (and its repeats i + k × unique pages).
      const order = jsonl(readFileSync(join(data, 'scifact/docs.jsonl'), 'utf8')).map((d) => String(d.id));
      const titleOf = new Map(pages.map((p) => [p.id, p.title]));
      const unique = (/(\d+) unique pages/.exec(note) ?? [])[1];
      const stride = unique ? Number(unique) : Infinity;
      const pageId = (i) => `p${String(Math.floor(i / 1000)).padStart(2, '0')}/page-${String(i).padStart(5, '0')}`;
      qrels = new Map();
      for (const [q, rels] of sf) {
        const m = new Map();
        for (const [d, r] of rels) {
          for (let i = order.indexOf(d); i >= 0 && i < spec.pages; i += stride) if (titleOf.has(pageId(i))) m.set(pageId(i), r);
        }
        qrels.set(q, m);
      }
      variants = { clean: variants.clean };
      judged = 'SciFact test claims, an abstract\'s page (and its repeats) relevant';
    }
  } else {
    ({ variants, qrels } = titleQueries(pages));
    judged = 'known item: 100 English page titles as queries, the titled page relevant';
  }
  if (vectors) {
    for (const [name, qs] of Object.entries(variants)) {
      const f = join(dir, `queries-${name}.jsonl`);
      writeFileSync(f, qs.map(([id, text]) => JSON.stringify({ id, text })).join('\n') + '\n');
      const vecs = new Map(jsonl(run([indexBin(), 'embed', '--queries', f], 'aidocs-index embed').stdout).map((v) => [v.id, v.vector]));
      variants[name] = qs.map(([id, text]) => [id, text, vecs.get(id)]);
    }
  }
  return { key, ...spec, input, pagesFile, pages, variants, qrels, judged, note, cache: corpusCache };
}
