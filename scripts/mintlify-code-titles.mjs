// Writes fixtures/mintlify-code-titles.json: code fence info strings and the title Mintlify shows on
// the block, computed by Mintlify's own `parseMetaString` (@mintlify/common 1.0.1211,
// dist/mdx/plugins/rehype/rehypeCodeBlocks/parseMetaString.js; the meta is the info string after
// its first word), so that `indexer/src/code_title.rs` is tested against the reference renderer.
//
// Run: npm pack @mintlify/common@1.0.1211 && tar xzf mintlify-common-1.0.1211.tgz -C /tmp/common &&
//      PARSE_META=/tmp/common/package/dist/mdx/plugins/rehype/rehypeCodeBlocks/parseMetaString.js \
//      node scripts/mintlify-code-titles.mjs ../shared/data/sites/mintlify-docs ../shared/data/sites/pipecat-docs
import fs from 'node:fs';
import path from 'node:path';

const { parseMetaString } = await import(process.env.PARSE_META);

const edge = [
  'bash Install script', 'js config.js {1,3}', 'bash Terminal lines wrap', 'python title="Run the bot" lines',
  'python title=main.py', 'ts icon="js" app.ts highlight={2}', 'json {"a": 1}', 'mdx shared/my-snippet.mdx wrap',
  "bash 'quoted words' rest", 'bash expandable', 'bash Install \\"x\\"', 'js Title="Caps" x',
  'js a title=one title="two"', 'js x=y z', 'js lines=false Foo', 'js Install  script  ', 'js /regex/ name',
  'js name /a b/', 'js key = "spaced value"', 'js title="true"', "js title='it\\'s'", 'js {unclosed name',
  'js "unclosed name', 'js a"b" c', 'js [expandable] File.tsx', 'js Lines=x y', 'js 例 子.py', 'js',
];
function walk(dir, files) {
  for (const f of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, f);
    if (fs.statSync(p).isDirectory()) {
      if (!f.startsWith('.') && f !== 'node_modules') walk(p, files);
    } else if (/\.mdx?$/.test(f)) files.push(p);
  }
}
const real = new Set();
for (const dir of process.argv.slice(2)) {
  const files = [];
  walk(dir, files);
  for (const f of files) {
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
      const m = line.trim().match(/^(`{3,}|~{3,})\s*(\S+\s+\S.*)$/);
      if (m) real.add(m[2].trim());
    }
  }
}
const infos = [...new Set([...edge, ...[...real].sort()])];
const titles = infos.map((info) => {
  const space = info.search(/\s/);
  const meta = space < 0 ? '' : info.slice(space).trim();
  return [info, meta ? parseMetaString(meta).filename ?? '' : ''];
});
fs.writeFileSync(
  'fixtures/mintlify-code-titles.json',
  JSON.stringify({ about: 'Code fence info strings and the title Mintlify shows; written by scripts/mintlify-code-titles.mjs', titles }).replace(/\],\[/g, '],\n['),
);
console.log(`${titles.length} info strings`);
