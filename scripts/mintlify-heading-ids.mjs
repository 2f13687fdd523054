// Writes fixtures/mintlify-heading-ids.json: heading titles and the element id Mintlify gives them,
// computed with Mintlify's own code, so that `indexer/src/heading_id.rs` is tested against the
// reference renderer and not against our reading of it. The steps are copied from
// @mintlify/common 1.0.1211 (dist/slugify.js: `slugify`, `cleanHeadingId`, `safeCleanHeadingId`;
// dist/mdx/lib/remark-utils.js: `getUnicodeId`; dist/mdx/plugins/remark/
// remarkExtractTableOfContents.js: `deduplicateSlug`; dist/mdx/preprocessCustomHeadingIds.js:
// `normalizeCustomId`) around the library they call, @sindresorhus/slugify 2.2.0. One title at a
// time: the ids of a page's headings together (repeats, custom ids, components) are
// `scripts/mintlify-heading-anchors.mjs`' (Mintlify's remark pipeline itself).
//
// Run: npm install --prefix /tmp/slugify @sindresorhus/slugify@2.2.0 &&
//      SLUGIFY=/tmp/slugify/node_modules/@sindresorhus/slugify/index.js \
//      node scripts/mintlify-heading-ids.mjs ../shared/data/sites/mintlify-docs ../shared/data/sites/pipecat-docs
import fs from 'node:fs';
import path from 'node:path';

const { default: slugifyLib } = await import(process.env.SLUGIFY);

const getUnicodeId = (title) => encodeURIComponent(title.toLowerCase().trim().replace(/\s+/g, '-'));
function slugify(string) {
  const encoded = getUnicodeId(string);
  if (/%[0-9A-F]{2}/.test(encoded)) {
    return slugifyLib(encoded, { decamelize: false, preserveCharacters: ['%', '_'], lowercase: false });
  }
  return slugifyLib(encoded, { decamelize: false, preserveCharacters: ['_'] });
}
const cleanHeadingId = (id) =>
  decodeURIComponent(id.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))
    .replace(/[?,;:!'"()[\]{}]/g, '')
    .replace(/\p{Emoji_Modifier}|\p{Emoji_Modifier_Base}|\p{Emoji_Presentation}|\p{Extended_Pictographic}|[\u200D\uFE0E\uFE0F]/gu, '');
const safeCleanHeadingId = (id) => {
  try {
    return cleanHeadingId(id);
  } catch {
    return id;
  }
};
const normalizeCustomId = (raw) =>
  raw.trim().replace(/[<>"&?,;:!'()\[\]{}]/g, '')
    .replace(/\p{Emoji_Modifier}|\p{Emoji_Modifier_Base}|\p{Emoji_Presentation}|\p{Extended_Pictographic}|[\u200D\uFE0E\uFE0F]/gu, '')
    .replace(/\s+/g, '-');
function deduplicator() {
  const seen = new Map();
  return (slug) => {
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    if (count === 0) return slug;
    let suffix = count + 1;
    let suffixed = `${slug}-${suffix}`;
    while (seen.has(suffixed)) {
      suffix += 1;
      suffixed = `${slug}-${suffix}`;
    }
    seen.set(suffixed, 1);
    return suffixed;
  };
}
// One page's headings in order: `[title, customId | null]` -> the ids the page's elements get.
function pageIds(headings) {
  const dedupe = deduplicator();
  return headings.map(([title, custom]) => {
    const explicit = custom === null ? '' : safeCleanHeadingId(normalizeCustomId(custom));
    return safeCleanHeadingId(dedupe(explicit || slugify(title)));
  });
}

const edge = [
  'Structure of the llms.txt file', 'llms-full.txt', 'Create an #ask-ai channel', '3. VAD & Turn Analyzer Configuration',
  'Processor pause/resume (urgent)', "What's new", "Don't panic", 'It is what it is', 'Step 1: Install', 'FAQ?',
  'Café au lait', 'Über uns', 'Ελληνικά Σ', '中文标题', '日本語 の 見出し', '한국어 제목', 'Español: ¿Qué es?', '🚀 Launch', 'Launch 🚀 now',
  '👍🏽 Thumbs', 'Emoji ❤️ heart', 'Flags 🇫🇷', 'v1.2.3 release', 'a - b', 'a -- b', '  spaced   out  ', 'under_score_name', '__init__',
  'CamelCaseHeading', 'APIs and SDKs', 'ID: 100%', '100% done', '50%off', 'Plus + minus', 'a=b', 'email@example.com', '$HOME path',
  'C# and F#', 'C++', 'Tab\tseparated', 'Quote "this"', "It's Bob's", 'Brackets [x] {y} (z)', 'semi;colon', 'comma, list', 'end.', '.start',
  '-dash-', 'Ünïcödé ñ', 'Ǆemo', 'İstanbul', 'ß straße', 'x²', '½ half', '١٢٣ arabic digits', 'हिन्दी शीर्षक', '', '   ', '!!!', '...',
  '--', 'a\u00a0b', 'zero\u200bwidth', 'back\\slash', 'tilde~star*', 'bang! wow', "s-t's", 'a-s-t-x', 'cats-s', 'T-s', 'A T', 'it-t',
];
function headingsIn(file) {
  const out = [];
  let fence = null;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const t = line.trimStart();
    const m = t.match(/^(`{3,}|~{3,})/);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      continue;
    }
    if (m) {
      fence = m[1];
      continue;
    }
    const h = line.match(/^ {0,3}#{1,4}\s+(.*?)\s*$/);
    if (h) out.push(h[1]);
  }
  return out;
}
function walk(dir, files) {
  for (const f of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, f);
    if (fs.statSync(p).isDirectory()) {
      if (!f.startsWith('.') && f !== 'node_modules') walk(p, files);
    } else if (/\.mdx?$/.test(f)) files.push(p);
  }
}
// Real titles: every distinct plain heading of the given sites with a character other than an ASCII
// letter, digit or space (links, emphasis and code marks excluded: those are the converter's
// business, not the id's).
const real = new Set();
for (const dir of process.argv.slice(2)) {
  const files = [];
  walk(dir, files);
  for (const f of files) {
    for (const h of headingsIn(f)) if (!/[`*_\[\]<>{}\\]/.test(h) && /[^A-Za-z0-9 ]/.test(h)) real.add(h);
  }
}
const titles = [...new Set([...edge, ...[...real].sort()])];
const fixture = {
  about: 'Heading titles and the ids Mintlify gives them; written by scripts/mintlify-heading-ids.mjs from @mintlify/common 1.0.1211 and @sindresorhus/slugify 2.2.0',
  titles: titles.map((t) => [t, pageIds([[t, null]])[0]]),
};
fs.writeFileSync('fixtures/mintlify-heading-ids.json', JSON.stringify(fixture, null, 0).replace(/\],\[/g, '],\n['));
console.log(`${fixture.titles.length} titles`);
