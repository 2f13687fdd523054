// Writes fixtures/mintlify-heading-anchors.json: for every page file of the given sites, the element
// ids its headings and linkable components get, in document order, computed by Mintlify's own
// remark pipeline (@mintlify/common 1.0.1211), so that the anchors the index links to are tested
// against the reference renderer (tests/tests/issue_24_anchors.rs). What it runs is what `getMdx`
// runs up to the table of contents: `preprocessMdxFragmentCode`, `preprocessCustomHeadingIds`,
// `getAST`, imports resolved as the prebuild does (`findAndRemoveImports`, `resolveAllImports`),
// then `remarkPrompt`, `remarkParseTitleMarkdown`, `remarkComponentIds`, `remarkUnwrapJsxHeadings`,
// `remarkUnwrapInlineJsx`, `remarkExtractTableOfContents`; the ids are those of the `Heading`,
// `Step` and `Update` elements (as `cleanHeadingId` renders them), of `Accordion`, `Tab` and `View`
// elements (as they are), and of `h1`-`h4` elements with an id (a custom id left out of the table
// of contents), outside content readers are not shown (`<Visibility for="agents">`, an element of
// class `hidden`). Variables (`docs.json` `variables`) are not replaced: the sites here have none.
//
// Run (the package's published dist, and the versions of its dependencies it pins):
//   mkdir -p /tmp/mint && cd /tmp/mint && npm pack @mintlify/common@1.0.1211 && tar xzf mintlify-common-1.0.1211.tgz &&
//   npm install @sindresorhus/slugify@2.2.0 unified@11.0.5 remark@15.0.1 remark-parse@11.0.0 remark-mdx@3.1.0 \
//     remark-gfm@4.0.0 remark-frontmatter@5.0.0 remark-math@6.0.0 remark-stringify@11.0.0 remark-rehype@11.1.1 \
//     unist-util-visit@5.0.0 unist-util-visit-parents@6.0.1 unist-util-map@4.0.0 unist-util-remove@4.0.0 \
//     unist-util-remove-position@5.0.0 unist-builder@4.0.0 mdast-util-from-markdown@2.0.2 mdast-util-mdx@3.0.0 \
//     mdast-util-mdx-jsx@3.1.3 mdast-util-gfm@3.0.0 micromark-extension-mdxjs@3.0.0 micromark-extension-gfm@3.0.0 \
//     acorn@8.11.2 acorn-jsx@5.3.2 js-yaml@4.3.1 front-matter@4.0.2 lodash@4.18.1 estree-walker@3.0.3 \
//     estree-util-to-js@2.0.0 sucrase@3.34.0 xss@1.0.15 hast-util-to-estree@3.1.0 hast-util-from-html@2.0.3 \
//     hast-util-to-html@9.0.4 rehype-stringify@10.0.1 vfile@6.0.3
//   (@mintlify/common itself cannot be installed from npm: it pins @mintlify/mdx 4.0.7, unpublished.)
//   cd - && NODE_PATH=/tmp/mint/node_modules MINTLIFY_COMMON=/tmp/mint/package \
//     node scripts/mintlify-heading-anchors.mjs ../shared/data/sites/mintlify-docs \
//     ../shared/data/sites/pipecat-docs fixtures/heading-anchor-cases
// (Node resolves the package's imports from the folder above it: put `package` next to
// `node_modules`, as above.)
import fs from 'node:fs';
import path from 'node:path';

const C = path.resolve(process.env.MINTLIFY_COMMON) + '/dist/';
const { getAST } = await import(C + 'mdx/remark.js');
const { findAndRemoveImports, resolveAllImports, hasImports } = await import(C + 'mdx/snippets/index.js');
const plugin = (name) => import(C + `mdx/plugins/remark/${name}.js`);
const { remarkComponentIds } = await plugin('remarkComponentIds');
const { remarkExtractTableOfContents } = await plugin('remarkExtractTableOfContents');
const { remarkUnwrapJsxHeadings } = await plugin('remarkUnwrapJsxHeadings');
const { remarkUnwrapInlineJsx } = await plugin('remarkUnwrapInlineJsx');
const { remarkParseTitleMarkdown } = await plugin('remarkTitleMarkdown');
const { remarkPrompt } = await plugin('remarkPrompt');
const { safeCleanHeadingId } = await import(C + 'slugify.js');
const { preprocessCustomHeadingIds } = await import(C + 'mdx/preprocessCustomHeadingIds.js');
const { preprocessMdxFragmentCode } = await import(C + 'mdx/preprocessMdxFragmentCode.js');
const { visitParents } = await import(C + '../../node_modules/unist-util-visit-parents/index.js').catch(() =>
  import('unist-util-visit-parents'),
);
const fm = (await import(C + '../../node_modules/front-matter/index.js').catch(() => import('front-matter'))).default;

function walk(dir, root, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, root, out);
    else if (/\.mdx?$/.test(e.name)) out.push('/' + path.relative(root, p).split(path.sep).join('/'));
  }
  return out;
}

const CLEANED = ['Heading', 'Step', 'Update'];
const RAW = ['Accordion', 'Tab', 'View', 'h1', 'h2', 'h3', 'h4'];
const result = {};
for (const root of process.argv.slice(2)) {
  const files = walk(root, root, []);
  const parsed = new Map();
  for (const f of files) {
    const text = fs.readFileSync(path.join(root, f), 'utf8');
    try {
      parsed.set(f, { filename: f, text, ...(await findAndRemoveImports(getAST(text, f))) });
    } catch (e) {
      parsed.set(f, { filename: f, text, error: String(e.message).slice(0, 200) });
    }
  }
  const snippets = [...parsed.values()].filter((s) => !s.error);
  const pages = {};
  for (const f of files) {
    const p = parsed.get(f);
    if (p.error) {
      pages[f] = null; // Mintlify's build fails on the page: no ids to compare
      continue;
    }
    const tree = hasImports(p)
      ? await resolveAllImports({ snippets, fileWithImports: structuredClone(p), onWarning: () => {} })
      : p.tree;
    let meta = {};
    try {
      meta = fm(p.text).attributes ?? {};
    } catch {}
    for (const transform of [
      remarkPrompt(),
      remarkParseTitleMarkdown(),
      remarkComponentIds(meta),
      remarkUnwrapJsxHeadings(),
      remarkUnwrapInlineJsx(),
      remarkExtractTableOfContents({}, meta),
    ]) {
      // `remarkPrompt` reads the page's source (a `<Prompt>`'s body becomes its raw text).
      transform(tree, { value: preprocessCustomHeadingIds(preprocessMdxFragmentCode(p.text)), message() {} });
    }
    // Ids readers' pages have: none inside `<Visibility for="agents">` (or any audience but
    // humans) or an element hidden by its class.
    const attr = (n, name) => n.attributes?.find((a) => a.name === name)?.value;
    const hidden = (n) =>
      (n.type === 'mdxJsxFlowElement' || n.type === 'mdxJsxTextElement') &&
      ((n.name === 'Visibility' && attr(n, 'for') !== 'humans') ||
        (typeof attr(n, 'className') === 'string' && attr(n, 'className').split(/\s+/).includes('hidden')));
    const ids = [];
    visitParents(tree, 'mdxJsxFlowElement', (n, ancestors) => {
      if (hidden(n) || ancestors.some(hidden)) return;
      const id = attr(n, 'id');
      if (typeof id !== 'string') return;
      if (CLEANED.includes(n.name)) ids.push(safeCleanHeadingId(id));
      else if (RAW.includes(n.name)) ids.push(id);
    });
    pages[f] = ids;
  }
  result[path.basename(path.resolve(root))] = pages;
}
fs.writeFileSync('fixtures/mintlify-heading-anchors.json', JSON.stringify(result, null, 0).replace(/\],"/g, '],\n"'));
for (const [site, pages] of Object.entries(result)) console.log(site, Object.keys(pages).length, 'pages');
