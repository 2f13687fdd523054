// node --test: the demo site in a real headless Chromium (playwright-core driving /usr/bin/chromium).
// Renders fixtures/example-site with `aidocs-index demo`, serves it with `aidocs-index serve`, then
// drives the search box like a reader. Screenshots go to site-plugin/test-artifacts/.
// Needs the indexer binary: $AIDOCS_INDEX_BIN, else target/{release,debug}/aidocs-index.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const plugin = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(plugin, '..');
const artifacts = join(plugin, 'test-artifacts');
const bin =
  process.env.AIDOCS_INDEX_BIN ??
  [join(repo, 'target', 'release', 'aidocs-index'), join(repo, 'target', 'debug', 'aidocs-index')]
    .filter(existsSync)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]; // the newest build

let server;
let base;
let plainServer;
let plainBase;
let multiServer;
let multiBase;
let browser;
let work;

function run(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`aidocs-index ${args[0]} exited ${code}: ${err}`))));
  });
}

/** `aidocs-index serve DIR --port 0`; resolves with the process and its base URL. */
async function startServer(dir) {
  const proc = spawn(bin, ['serve', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/at (http:\/\/[^/\s]+)\//);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { server: proc, base: url };
}

before(async () => {
  assert.ok(bin, 'aidocs-index is not built: cargo build -p aidocs-index (or set AIDOCS_INDEX_BIN)');
  work = mkdtempSync(join(tmpdir(), 'aidocs-e2e-'));
  mkdirSync(artifacts, { recursive: true });
  await run(['demo', join(repo, 'fixtures', 'example-site'), '--out', join(work, 'site'), '--plugin', plugin]);
  ({ server, base } = await startServer(join(work, 'site')));
  // A plain static site that adds search with `build --search-box` and the snippet it writes.
  const plain = join(work, 'plain');
  mkdirSync(plain, { recursive: true });
  await run(['build', join(repo, 'fixtures', 'example-site'), '--out', join(plain, '_search'), '--search-box', '--plugin', plugin]);
  const snippet = readFileSync(join(plain, '_search', 'ui', 'snippet.html'), 'utf8');
  writeFileSync(join(plain, 'index.html'), `<!doctype html><meta charset="utf-8"><title>Plain</title><h1>A plain site</h1>\n${snippet}`);
  ({ server: plainServer, base: plainBase } = await startServer(plain));
  // Issue 6: a multilingual site, built as one index per language; a French and a Chinese page.
  const multi = join(work, 'multi');
  mkdirSync(multi, { recursive: true });
  await run(['build', join(repo, 'fixtures', 'multilingual-site'), '--out', join(multi, '_search'), '--search-box', '--no-embeddings', '--plugin', plugin]);
  const multiSnippet = readFileSync(join(multi, '_search', 'ui', 'snippet.html'), 'utf8');
  for (const [file, lang] of [['fr.html', 'fr'], ['zh.html', 'zh-CN']]) {
    writeFileSync(join(multi, file), `<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>${lang}</title><h1>${lang}</h1>\n${multiSnippet}`);
  }
  ({ server: multiServer, base: multiBase } = await startServer(multi));
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  plainServer?.kill();
  multiServer?.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A page whose network bytes are counted (body sizes of every response). */
async function newPage() {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'], viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const net = { bytes: 0, requests: 0, urls: [] };
  page.on('requestfinished', async (req) => {
    const sizes = await req.sizes().catch(() => ({ responseBodySize: 0 }));
    const r = { url: () => req.url() };
    net.bytes += sizes.responseBodySize; // bytes on the wire (gzip where the server compressed)
    net.requests += 1;
    net.urls.push(new URL(r.url()).pathname);
  });
  page.on('pageerror', (e) => {
    throw e;
  });
  return { page, net, context };
}

const box = (page) => page.locator('aidocs-search');
const options = (page) => box(page).locator('a.opt');

async function settle(page) {
  await page.waitForTimeout(250);
  await page.waitForLoadState('networkidle');
}

/** Records the search box's `aidocs-results` events in `window.__events`. */
async function recordResults(page) {
  await page.evaluate(() => {
    window.__events = [];
    document.querySelector('aidocs-search').addEventListener('aidocs-results', (e) =>
      window.__events.push({ query: e.detail.query, mode: e.detail.mode, first: e.detail.results[0]?.title }),
    );
  });
}

/** Whether the demo index has vectors (then `auto` mode upgrades a paused query to hybrid). */
async function demoHasVectors() {
  const { openIndex } = await import('../src/search.js');
  const dir = join(work, 'site', '_search');
  const index = await openIndex(async (name) => new Uint8Array(readFileSync(join(dir, name))));
  const vectors = index.summary.vectorModel != null;
  index.close();
  return vectors;
}

/** Waits for the last search of `q` the box will run: the hybrid upgrade where the index has vectors. */
async function finalResults(page, q) {
  const mode = (await demoHasVectors()) ? 'hybrid' : 'lexical';
  await page.waitForFunction(([q, mode]) => window.__events.some((e) => e.query === q && e.mode === mode), [q, mode], {
    timeout: 30000,
  });
  await settle(page);
}

test('issue 24: the demo page shows what the site shows (code in place, nested navigation, the site\'s name)', async () => {
  const { page, context } = await newPage();
  await page.goto(`${base}/quickstart`);
  // Code blocks are rendered where the page has them, with their language, between the prose.
  const blocks = await page.locator('article pre code[class^="language-"]').count();
  assert.ok(blocks >= 1, 'no code block with a language in the article');
  const order = await page.evaluate(() => {
    const nodes = [...document.querySelectorAll('article > *')].map((n) => n.tagName);
    return { first: nodes.indexOf('PRE'), last: nodes.lastIndexOf('P') };
  });
  assert.ok(order.first > 0 && order.first < order.last, `code is not between the prose: ${JSON.stringify(order)}`);
  // docs.json's name, and a group nested inside its parent (Security > Advanced), not split around it.
  assert.equal(await page.locator('header .brand span').textContent(), 'Acme API');
  assert.equal(await page.locator('.sidebar h4', { hasText: 'Guides' }).count(), 1);
  assert.equal(await page.locator('.sidebar .group .group > span', { hasText: 'Advanced' }).count(), 1);
  await page.screenshot({ path: join(artifacts, 'demo-page.png'), fullPage: true });
  await context.close();
});

test('Ctrl+K, typing key by key, grouped results, keyboard to a section, landing on page#anchor', async () => {
  const { page, net, context } = await newPage();
  await page.goto(`${base}/quickstart/`);
  await settle(page);
  await recordResults(page);
  const pageLoad = net.bytes;
  const html = net.urls.filter((u) => !u.startsWith('/_search/ui/'));
  const assetBytes = net.bytes;
  await page.keyboard.press('Control+k');
  const input = box(page).locator('input');
  await assert.doesNotReject(input.waitFor({ state: 'visible' }));
  await settle(page);
  const opened = net.bytes;
  const perKey = [];
  for (const ch of 'refresh token') {
    const b0 = net.bytes;
    const r0 = net.requests;
    await page.keyboard.type(ch);
    await settle(page);
    perKey.push([ch, net.bytes - b0, net.requests - r0]);
  }
  // The list settles once the paused query's hybrid upgrade (if any) has landed.
  await finalResults(page, 'refresh token');
  await options(page).first().waitFor();
  await page.screenshot({ path: join(artifacts, 'search-results.png') });
  const groups = await box(page).locator('li.group').allTextContents();
  assert.ok(groups.includes('Guides'), groups.join());
  const titles = await options(page).allTextContents();
  assert.match(titles[0], /Refresh tokens/);
  assert.ok(await box(page).locator('mark').count() > 0, 'matched words are marked');
  assert.equal(await input.getAttribute('role'), 'combobox');
  assert.equal(await input.getAttribute('aria-expanded'), 'true');
  assert.equal(await box(page).locator('#listbox').getAttribute('role'), 'listbox');
  // Arrow down to the first section link of the first page, then Enter.
  const hrefs = await options(page).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  const target = hrefs.findIndex((h) => h.includes('#'));
  assert.ok(target > 0, hrefs.join());
  for (let i = 0; i < target; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await input.getAttribute('aria-activedescendant'), `opt-${target}`);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}${hrefs[target]}`);
  assert.match(page.url(), /\/guides\/refresh-tokens#[a-z-]+$/);
  await page.screenshot({ path: join(artifacts, 'landed-on-section.png') });
  assert.ok(pageLoad < 15_000, `page load before the first search is ${pageLoad} B (budget 15 KB)`);
  console.log(
    `# bytes in Chromium: page load (HTML + element.js, before the first search) ${assetBytes} B in ${html.length + 1} requests; ` +
      `engine + manifest on open ${opened - pageLoad} B; per keystroke: ${perKey.map(([c, b, r]) => `${JSON.stringify(c)} ${b} B/${r}`).join(', ')}`,
  );
  await context.close();
});

test('issue 4: the default `auto` mode ranks keystrokes lexically and a pause in typing hybrid', async () => {
  const vectors = await demoHasVectors();
  if (!vectors) {
    assert.ok(!process.env.AIDOCS_REQUIRE_MODEL, 'AIDOCS_REQUIRE_MODEL is set but the demo index has no vectors');
    return; // without the model the demo is lexical-only: nothing to upgrade
  }
  const { page, net, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await recordResults(page);
  await page.keyboard.press('Control+k');
  await box(page).locator('input').waitFor({ state: 'visible' });
  await settle(page);
  const before = net.urls.length;
  // Key by key, 30 ms apart: faster than the pause that upgrades a query.
  await page.keyboard.type('renew my credentials', { delay: 30 });
  await page.waitForFunction(() => window.__events.some((e) => e.mode === 'hybrid'), null, { timeout: 30000 });
  await settle(page);
  const events = await page.evaluate(() => window.__events);
  // Every keystroke's search is lexical; the query typing stopped at is ranked hybrid, last. (A
  // machine stalled for 400 ms mid-word may upgrade a partial query too: not asserted against.)
  const last = events[events.length - 1];
  assert.deepEqual([last.query, last.mode], ['renew my credentials', 'hybrid'], JSON.stringify(events));
  assert.ok(events.some((e) => e.mode === 'lexical' && e.query === 'renew my credentials'), JSON.stringify(events));
  assert.ok(events.every((e) => e.mode === 'lexical' || e.mode === 'hybrid'), JSON.stringify(events));
  // The paraphrase shares no word with the page's title: the semantic side finds it.
  assert.match(last.first ?? '', /Refresh tokens/, JSON.stringify(events));
  assert.match((await options(page).first().textContent()) ?? '', /Refresh tokens/);
  // Vector files were fetched only for the upgraded query.
  const fetched = net.urls.slice(before);
  assert.ok(fetched.some((u) => u.includes('/_search/v/')), fetched.join());
  await context.close();
});

test('issue 4 (CI, stop 14): a hybrid upgrade never changes the list under a reader choosing with the arrow keys', async () => {
  if (!(await demoHasVectors())) {
    assert.ok(!process.env.AIDOCS_REQUIRE_MODEL, 'AIDOCS_REQUIRE_MODEL is set but the demo index has no vectors');
    return; // without vectors there is no upgrade
  }
  const { page, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  // A long pause, so the arrow key below surely comes before the upgrade would, even on a loaded machine.
  await page.evaluate(() => document.querySelector('aidocs-search').setAttribute('hybrid-pause', '3000'));
  await recordResults(page);
  await page.keyboard.press('Control+k');
  const input = box(page).locator('input');
  await input.waitFor({ state: 'visible' });
  await page.keyboard.type('renew my credentials');
  await page.waitForFunction(() => window.__events.some((e) => e.query === 'renew my credentials'), null, { timeout: 30000 });
  const shown = await options(page).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(shown.length > 1, shown.join());
  await page.keyboard.press('ArrowDown');
  assert.equal(await input.getAttribute('aria-activedescendant'), 'opt-1');
  await page.waitForTimeout(4000);
  await settle(page);
  const events = await page.evaluate(() => window.__events);
  assert.ok(events.every((e) => e.mode === 'lexical'), JSON.stringify(events));
  assert.deepEqual(await options(page).evaluateAll((as) => as.map((a) => a.getAttribute('href'))), shown);
  assert.equal(await input.getAttribute('aria-activedescendant'), 'opt-1');
  // The next keystroke starts over: its pause upgrades again.
  await page.keyboard.type(' ');
  await page.waitForFunction(() => window.__events.some((e) => e.mode === 'hybrid'), null, { timeout: 30000 });
  await context.close();
});

test('issue 6: a partly typed last word finds the longer word (prefix search)', async () => {
  const { page, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await page.keyboard.press('Control+k');
  await box(page).locator('input').waitFor({ state: 'visible' });
  await page.keyboard.type('authen');
  await settle(page);
  await options(page).first().waitFor();
  const titles = await options(page).allTextContents();
  assert.match(titles[0], /Authentication/, titles.join(' | '));
  await context.close();
});

test('issue 6: a misspelled query is corrected, says so, and costs few bytes per keystroke', async () => {
  const { page, net, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await recordResults(page);
  await page.keyboard.press('Control+k');
  await box(page).locator('input').waitFor({ state: 'visible' });
  await settle(page);
  const perKey = [];
  for (const ch of 'refesh tokns') {
    const [b0, r0] = [net.bytes, net.requests];
    await page.keyboard.type(ch);
    await settle(page);
    perKey.push([ch, net.bytes - b0, net.requests - r0]);
  }
  await finalResults(page, 'refesh tokns');
  const status = (await box(page).locator('.status').textContent()) ?? '';
  assert.equal(status, 'Showing results for “refresh tokens”');
  const titles = await options(page).allTextContents();
  assert.match(titles[0], /Refresh tokens/, titles.join(' | '));
  assert.ok(await box(page).locator('mark').count() > 0, 'the corrected words are marked');
  const events = await page.evaluate(() => window.__events);
  const last = events[events.length - 1];
  assert.equal(last.query, 'refesh tokns');
  // Typo files are fetched only once a word is absent and no indexed word starts with it.
  assert.ok(net.urls.some((u) => u.includes('/_search/y/')), net.urls.join());
  const total = perKey.reduce((a, [, b]) => a + b, 0);
  console.log(
    `# typo tolerance in Chromium, "refesh tokns" key by key: ${total} B in all; per keystroke: ` +
      perKey.map(([c, b, r]) => `${JSON.stringify(c)} ${b} B/${r}`).join(', '),
  );
  // An identifier is never corrected, and a quoted word neither.
  for (const q of ['"refesh"', 'getUserByIdd']) {
    await page.keyboard.press('Control+a');
    await page.keyboard.type(q);
    await settle(page);
    await page.waitForFunction((q) => window.__events.some((e) => e.query === q), q, { timeout: 30000 });
    assert.doesNotMatch((await box(page).locator('.status').textContent()) ?? '', /Showing results for/, q);
  }
  await context.close();
});

test('issue 6: with `facets`, chips count the matches by kind, group and tag and filter the list', async () => {
  const { page, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await page.evaluate(() => {
    const el = document.querySelector('aidocs-search');
    el.setAttribute('facets', '');
    el.setAttribute('mode', 'lexical');
  });
  await recordResults(page);
  await page.keyboard.press('Control+k');
  await box(page).locator('input').waitFor({ state: 'visible' });
  await page.keyboard.type('user');
  await settle(page);
  const chips = box(page).locator('button.chip');
  await chips.first().waitFor();
  const labels = await chips.allTextContents();
  // The example site: "user" matches 4 guides and 3 API pages, 3 of them tagged Users.
  assert.ok(labels.includes('Guides4') && labels.includes('API reference3'), labels.join(' | '));
  assert.ok(labels.includes('Users3'), labels.join(' | '));
  const groups = () => box(page).locator('li.group').allTextContents();
  assert.deepEqual((await groups()).sort(), ['API reference', 'Guides']);
  // One kind at a time: the list narrows, the kind chips keep their counts (the reader may switch).
  await chips.filter({ hasText: 'API reference' }).click();
  await settle(page);
  assert.deepEqual(await groups(), ['API reference']);
  assert.equal(await chips.filter({ hasText: 'API reference' }).getAttribute('aria-pressed'), 'true');
  assert.ok((await chips.allTextContents()).includes('Guides4'));
  // Back to every kind, then a navigation group (one at a time, labelled by its last part).
  await chips.filter({ hasText: 'API reference' }).click();
  await settle(page);
  const group = box(page).locator('button.chip[data-group="Guides > Security"]');
  assert.equal(await group.textContent(), 'Security2');
  await group.click();
  await settle(page);
  assert.equal(await box(page).locator('a.opt.page').count(), 2);
  assert.equal(await group.getAttribute('aria-pressed'), 'true');
  await group.click();
  await settle(page);
  // Then a tag: only the pages carrying it.
  const users = box(page).locator('button.chip[data-tag="Users"]');
  await users.click();
  await settle(page);
  const pages = await box(page).locator('a.opt.page').count();
  assert.equal(pages, 3);
  assert.equal(await users.getAttribute('aria-pressed'), 'true');
  // The input keeps the focus, so the reader types on.
  assert.equal(await page.evaluate(() => document.querySelector('aidocs-search').shadowRoot.activeElement?.tagName), 'INPUT');
  await context.close();
});

test('Esc closes, "/" opens, and an empty query shows nothing', async () => {
  const { page, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await page.keyboard.press('/');
  const input = box(page).locator('input');
  await input.waitFor({ state: 'visible' });
  await page.keyboard.type('zzzqqq');
  await box(page).locator('.status').getByText('No results').waitFor();
  await page.keyboard.press('Escape');
  await input.waitFor({ state: 'hidden' });
  await context.close();
});

test('an API result shows its method and path and copies a working curl command', async () => {
  const { page, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await page.keyboard.press('Control+k');
  await page.keyboard.type('getUserById');
  await options(page)
    .filter({ hasText: '/v1/users/{id}' })
    .first()
    .waitFor({ timeout: 30000 })
    .catch(async (e) => {
      // Say what the box shows instead (status line, results) rather than only "timeout".
      const shown = await box(page).evaluate((el) => el.shadowRoot.textContent).catch(() => '?');
      throw new Error(`${e.message}\nthe box shows: ${shown}`);
    });
  const first = options(page).first();
  assert.match(await first.textContent(), /GET/);
  assert.match(await first.textContent(), /\/v1\/users\/\{id\}/);
  await box(page).locator('button.curl').first().click();
  await box(page).locator('button.curl').first().getByText('Copied').waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // Issue 18: the URL is one single-quoted shell word; only $API_TOKEN is left for the shell.
  assert.match(copied, /^curl -X GET 'https?:\/\/[^'\s]+\/v1\/users\/\{id\}'/);
  assert.match(copied, /-H "Authorization: Bearer \$API_TOKEN"/);
  await page.screenshot({ path: join(artifacts, 'api-result.png') });
  await context.close();
});

/** Opens the demo's search box with `attrs` set, types `q` and copies its context; returns the clipboard. */
async function copyContext(attrs, q) {
  const { page, context, net } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await page.evaluate((attrs) => {
    for (const [k, v] of Object.entries(attrs)) document.querySelector('aidocs-search').setAttribute(k, v);
  }, attrs);
  await page.keyboard.press('Control+k');
  await page.keyboard.type(q);
  const btn = box(page).locator('button.ctx');
  await btn.waitFor({ state: 'visible', timeout: 30000 });
  await btn.click();
  await btn.getByText('Copied').waitFor({ timeout: 30000 }).catch(async (e) => {
    const shown = await box(page).evaluate((el) => el.shadowRoot.querySelector('.status').textContent).catch(() => '?');
    throw new Error(`${e.message}\nthe status line shows: ${shown}`);
  });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  await context.close();
  return { copied, urls: net.urls };
}

test('issue 22: "Copy as context" puts cited evidence on the clipboard, selected in the page or by the handler', async () => {
  // In the page: the full module selects the evidence, citing absolute URLs of this site.
  const local = await copyContext({ 'copy-context': '', 'context-tokens': '600' }, 'refresh tokens');
  assert.match(local.copied, /^### \[1\] Refresh tokens\nhttps?:\/\/[^/\s]+\/guides\/refresh-tokens/, local.copied);
  assert.ok(local.urls.some((u) => u.endsWith('aidocs_search_full_bg.wasm')), 'the full module loads');
  assert.ok(local.urls.some((u) => /\/x\/[0-9a-f]{12}\.bin$/.test(u)), 'the section text is fetched');
  // Without the attribute there is no action, and the lean module loads.
  const { page, context, net } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await page.keyboard.press('Control+k');
  await page.keyboard.type('refresh tokens');
  await options(page).first().waitFor({ timeout: 30000 });
  assert.equal(await box(page).locator('button.ctx').isVisible(), false);
  assert.ok(!net.urls.some((u) => u.endsWith('aidocs_search_full_bg.wasm')));
  await context.close();

  // From the handler's /context: a real handler over the demo's index, on another origin, in a process
  // of its own (a process loads one wasm module, and this one has the lean module already).
  const script = `
    import { createServer } from 'node:http';
    import { readFileSync } from 'node:fs';
    import { join } from 'node:path';
    import { createSearchHandler, toNodeListener } from ${JSON.stringify(join(plugin, 'src', 'handler.js'))};
    const dir = ${JSON.stringify(join(work, 'site', '_search'))};
    const loadShard = async (name) => new Uint8Array(readFileSync(join(dir, name)));
    const server = createServer(toNodeListener(createSearchHandler({ loadShard, cors: true })));
    server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`;
  const handler = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise((resolve, reject) => {
      let out = '';
      handler.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/port (\d+)/);
        if (m) resolve(m[1]);
      });
      handler.on('exit', (code) => reject(new Error(`the handler exited ${code}`)));
    });
    const endpoint = `http://127.0.0.1:${port}/context`;
    const remote = await copyContext({ 'copy-context': '', 'context-endpoint': endpoint, 'context-tokens': '600' }, 'refresh tokens');
    assert.match(remote.copied, /^### \[1\] Refresh tokens\n/, remote.copied);
    assert.ok(!remote.urls.some((u) => u.endsWith('aidocs_search_full_bg.wasm')), 'the page keeps the lean module');
  } finally {
    handler.kill();
  }
});

test('issue 18: a result whose URL is javascript: is listed as text, never a link: Enter and click run nothing', async () => {
  const { page, context } = await newPage();
  await page.goto(`${base}/quickstart/`);
  await settle(page);
  await recordResults(page);
  // The real engine's results over the real index, with the top page's URL and its sections' made
  // hostile after each search: what an index built by something else, or tampered with, could hold.
  await page.evaluate(async () => {
    window.__pwned = 0;
    const element = document.querySelector('script[src$="/element.js"]').src;
    const { AidocsIndex } = await import(new URL('search.js', element).href); // the module the box imports
    const search = AidocsIndex.prototype.search;
    AidocsIndex.prototype.search = async function (...args) {
      const results = await search.apply(this, args);
      if (results[0]) {
        results[0].url = 'javascript:window.__pwned=1';
        for (const s of results[0].sections) s.url = ' JaVaScRiPt:window.__pwned=2';
      }
      return results;
    };
  });
  const start = page.url();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('refresh token');
  await finalResults(page, 'refresh token');
  await options(page).first().waitFor();
  const opts = await options(page).evaluateAll((as) =>
    as.map((a) => ({ href: a.getAttribute('href'), disabled: a.getAttribute('aria-disabled'), page: a.classList.contains('page'), text: a.textContent })),
  );
  assert.match(opts[0].text, /Refresh tokens/, 'the hostile result is still listed');
  assert.equal(opts[0].href, null, JSON.stringify(opts[0]));
  assert.equal(opts[0].disabled, 'true');
  // The top page is listed first, its sections under it; the next page is an untouched link.
  const safe = opts.findIndex((o, i) => i > 0 && o.page);
  assert.ok(safe > 1, `the top page has sections: ${JSON.stringify(opts)}`);
  for (const o of opts.slice(0, safe)) assert.deepEqual([o.href, o.disabled], [null, 'true'], JSON.stringify(o));
  assert.match(opts[safe].href, /^\//, JSON.stringify(opts[safe]));
  assert.equal(await box(page).locator('a.opt[href*="script" i]').count(), 0);
  // Enter on the auto-selected first result, and a click on it, go nowhere and run nothing.
  const input = box(page).locator('input');
  assert.equal(await input.getAttribute('aria-activedescendant'), 'opt-0');
  await page.keyboard.press('Enter');
  await options(page).first().click({ force: true }); // force: Playwright will not click what is aria-disabled
  await page.waitForTimeout(300);
  assert.equal(page.url(), start);
  assert.equal(await page.evaluate(() => window.__pwned), 0);
  assert.ok(await input.isVisible(), 'the box stays open on a result that is not a link');
  await page.screenshot({ path: join(artifacts, 'unsafe-url-as-text.png') });
  // A safe result below is still followed with the keyboard.
  await input.focus();
  for (let i = 0; i < safe; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}${opts[safe].href}`);
  assert.equal(await page.evaluate(() => window.__pwned ?? 0), 0);
  await context.close();
});

test('page text with <script> and <img onerror> renders inert; internal pages never appear', async () => {
  const { page, context } = await newPage();
  await page.goto(`${base}/`);
  await settle(page);
  await page.evaluate(() => {
    window.__xss = 0;
    window.alert = () => (window.__xss += 1);
  });
  await page.keyboard.press('Control+k');
  await page.keyboard.type('untrusted script img onerror');
  await options(page).first().waitFor();
  const list = box(page).locator('#listbox');
  assert.match(await list.textContent(), /<script>|<img/);
  assert.equal(await list.locator('script, img').count(), 0);
  assert.equal(await page.evaluate(() => window.__xss), 0);
  await page.screenshot({ path: join(artifacts, 'escaped-html.png') });
  for (const q of ['CANARY-INTERNAL-7f3a', 'on-call escalation bridge', 'acmectl failover', 'signing master key']) {
    await box(page).locator('input').fill(q);
    await settle(page);
    const text = (await list.textContent()) ?? '';
    assert.doesNotMatch(text, /CANARY|runbook|on-call|Signing secrets/i, q);
  }
  await context.close();
});

test('issue 5: `build --search-box` plus its snippet adds working search to a plain static page', async () => {
  const { page, net, context } = await newPage();
  await page.goto(`${plainBase}/`);
  await settle(page);
  assert.ok(net.urls.includes('/_search/ui/dist/element.js'), net.urls.join());
  assert.ok(!net.urls.some((u) => u.includes('.wasm')), 'the engine loads lazily, not with the page');
  await box(page).locator('button.open').click();
  await box(page).locator('input').waitFor({ state: 'visible' });
  await page.keyboard.type('create user');
  await settle(page);
  await options(page).first().waitFor();
  const titles = await options(page).allTextContents();
  assert.ok(titles.some((t) => /create.*user/i.test(t)), titles.join(' | '));
  await context.close();
});

test('issue 6: on a multilingual site the search box opens the page language\'s index only', async () => {
  for (const [file, query, url, wasm] of [
    ['fr.html', 'domaines personnalisés', '/fr/custom-domain', 'aidocs_search_full_bg.wasm'],
    ['zh.html', '自定义域名', '/zh/custom-domain', 'aidocs_search_bg.wasm'],
  ]) {
    const { page, net, context } = await newPage();
    await page.goto(`${multiBase}/${file}`);
    await settle(page);
    await box(page).locator('button.open').click();
    await box(page).locator('input').waitFor({ state: 'visible' });
    await page.keyboard.type(query);
    await settle(page);
    await options(page).first().waitFor();
    const hrefs = await options(page).evaluateAll((els) => els.map((a) => new URL(a.href).pathname));
    assert.ok(hrefs[0].startsWith(url), `${file}: ${hrefs.join()}`);
    // One partition manifest, and the module the language needs (French: the Snowball stemmers).
    const partitions = net.urls.filter((u) => u.startsWith('/_search/l/'));
    assert.equal(partitions.length, 1, net.urls.join());
    assert.ok(net.urls.some((u) => u.endsWith(`/${wasm}`)), net.urls.join());
    console.log(`# ${file}: "${query}" ${net.bytes} B in ${net.requests} requests, one partition manifest`);
    await context.close();
  }
});

test('issue 5: dark colour scheme themes the modal (screenshot kept)', async () => {
  const { page, context } = await newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${base}/quickstart/`);
  await settle(page);
  await page.keyboard.press('Control+k');
  await box(page).locator('input').waitFor({ state: 'visible' });
  await page.keyboard.type('token');
  await settle(page);
  await options(page).first().waitFor();
  const [bg, fg] = await box(page).locator('input').evaluate((el) => {
    const dialog = el.closest('[role=dialog]') ?? el.parentElement;
    const s = getComputedStyle(dialog);
    return [s.backgroundColor, getComputedStyle(el).color];
  });
  const lum = (c) => c.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
  assert.ok(lum(bg) < 80, `dark background expected, got ${bg}`);
  assert.ok(lum(fg) > 170, `light text expected, got ${fg}`);
  await page.screenshot({ path: join(artifacts, 'search-results-dark.png') });
  await context.close();
});
