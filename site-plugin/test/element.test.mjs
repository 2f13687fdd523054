// node --test: the search box's pure helpers (src/element.js) that stand between an index's data and the
// reader: safeHref (which result URLs become links) and curlCommand (what "Copy curl" puts on the
// clipboard), issue 18. The last test runs safeHref inside headless Chromium (playwright-core driving
// /usr/bin/chromium), whose URL parser is the one `<a href>` and `location.assign` use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// element.js defines a custom element: outside a browser its base class is all it needs to load.
globalThis.HTMLElement ??= class {};
const { safeHref, shellQuote, curlCommand } = await import('../src/element.js');

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const PAGE = 'https://docs.example.com/guides/page';

/** URLs an index must never turn into a link on a page at PAGE. */
const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\x00javascript:alert(1)',
  '\x01\x08\x1f javascript:alert(1)',
  '\tjava\nscript:alert(1)',
  'java\tscr\ript:alert(1)',
  'javascript\t:alert(1)',
  'javascript:alert(1)\n',
  'javascript://docs.example.com/%0Aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'blob:https://docs.example.com/0b5a2f7e-1d2c-4c1b-9a39-4a0c8e1f7b11',
  'about:blank',
  'ftp://docs.example.com/x',
  'mailto:someone@example.com',
  '//evil.example',
  '//evil.example/guides/page',
  '///evil.example',
  ' //evil.example',
  '\\\\evil.example',
  '\\\\evil',
  '/\\evil.example',
  '\\/evil.example',
  '\t//evil.example',
  '/\t/evil.example',
  '',
  '   ',
  null,
  undefined,
  42,
  { toString: () => '/guides/x' },
];

/** URLs that stay links: site-relative ones, and absolute http(s) ones (which may leave the site). */
const SAFE = [
  '/guides/refresh-tokens',
  '/guides/refresh-tokens#renewing-credentials',
  '#renewing-credentials',
  '?q=token',
  'other-page',
  '../api/users',
  './x:y',
  'javascript&colon;alert(1)', // a relative path of that name: escapeHtml keeps the & literal
  '%6Aavascript:alert(1)',
  'https://docs.example.com/guides/x',
  'http://docs.example.com/guides/x',
  'https://other.example/reference',
  'HTTPS://OTHER.EXAMPLE/',
];

test('issue 18: safeHref refuses javascript:, data:, vbscript:, other schemes and URLs that leave the origin', () => {
  for (const url of HOSTILE) assert.equal(safeHref(url, PAGE), null, JSON.stringify(String(url)));
  // Without a page to resolve against (Node), a relative URL is not a link either.
  assert.equal(safeHref('/guides/x'), null);
  assert.equal(safeHref('javascript:alert(1)'), null);
});

test('issue 18: safeHref keeps site-relative and absolute http(s) URLs as they are', () => {
  for (const url of SAFE) assert.equal(safeHref(url, PAGE), url);
  assert.equal(safeHref('https://docs.example.com/x'), 'https://docs.example.com/x');
  // The origin is the page's: another port or scheme is another origin for a relative URL.
  assert.equal(safeHref('/x', 'http://localhost:8080/docs/'), '/x');
  assert.equal(safeHref('//localhost:9090/x', 'http://localhost:8080/docs/'), null);
  assert.equal(safeHref('//localhost:8080/x', 'http://localhost:8080/docs/'), '//localhost:8080/x');
});

test('issue 18: shellQuote makes one literal shell word of anything', () => {
  const words = ["it's", "'", "''", '$(touch x)', '`id`', '"$HOME"', '\\', 'a b\tc\nd', '*', '!!', ''];
  const r = spawnSync('sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.split('\0').slice(0, -1), words);
});

/** Runs a copied command in `shell` with `curl` replaced by printf: its argv, and whether the canary was created. */
function argvOf(shell, command, dir) {
  assert.match(command, /^curl /);
  const r = spawnSync(shell, ['-c', `printf '%s\\0' ${command.slice('curl '.length)}`], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir, API_TOKEN: 'tok-123' },
  });
  assert.equal(r.status, 0, `${shell}: ${r.stderr}\n${command}`);
  return r.stdout.split('\0').slice(0, -1);
}

test('issue 18: a copied curl command runs nothing from the API path, method or base when pasted into a shell', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aidocs-curl-'));
  const canary = join(dir, 'pwned');
  try {
    const paths = [
      '/v1/users/{id}',
      `/v1/$(touch ${canary})`,
      `/v1/\`touch ${canary}\``,
      `/v1/'$(touch ${canary})'`,
      `/v1/"$(touch ${canary})"`,
      `/v1/'; touch ${canary}; echo '`,
      `/v1/x;touch ${canary}`,
      `/v1/x|touch ${canary}`,
      `/v1/x&&touch ${canary}&&`,
      `/v1/\\'$(touch ${canary})`,
      '/v1/${HOME}/$API_TOKEN',
      '/v1/*/?[a]',
      "/v1/it's",
      '/v1/!!',
    ];
    const shells = ['sh', 'bash'].filter((s) => spawnSync(s, ['-c', 'true']).status === 0);
    for (const shell of shells) {
      for (const path of paths) {
        const cmd = curlCommand({ method: 'get', path }, 'https://api.example.com/');
        assert.deepEqual(argvOf(shell, cmd, dir), ['-X', 'GET', `https://api.example.com${path}`, '-H', 'Authorization: Bearer tok-123'], cmd);
        const post = curlCommand({ method: 'POST', path }, undefined);
        assert.deepEqual(
          argvOf(shell, post, dir),
          ['-X', 'POST', `https://api.example.com${path}`, '-H', 'Authorization: Bearer tok-123', '-H', 'Content-Type: application/json', '-d', '{}'],
          post,
        );
      }
      // The base URL (the api-base attribute) is quoted with the path.
      const based = curlCommand({ method: 'GET', path: '/v1/x' }, `https://h/$(touch ${canary})/`);
      assert.deepEqual(argvOf(shell, based, dir).slice(0, 3), ['-X', 'GET', `https://h/$(touch ${canary})/v1/x`]);
      // Control characters in the URL are percent-encoded: a terminal never sees them pasted.
      const ctl = curlCommand({ method: 'GET', path: '/v1/a\nb\rc\x15d\x1b[2Je\x9bf' }, undefined);
      assert.doesNotMatch(ctl.replace(/ \\\n {2}/g, ' '), /[\0-\x1f\x7f-\x9f]/);
      assert.equal(argvOf(shell, ctl, dir)[2], 'https://api.example.com/v1/a%0Ab%0Dc%15d%1B[2Je%C2%9Bf');
      // The method: a plain one as is, another HTTP token quoted, anything else left out.
      assert.deepEqual(argvOf(shell, curlCommand({ method: 'M`id`', path: '/x' }, undefined), dir).slice(0, 2), ['-X', 'M`ID`']);
      assert.deepEqual(argvOf(shell, curlCommand({ method: "GE'T", path: '/x' }, undefined), dir).slice(0, 2), ['-X', "GE'T"]);
      assert.deepEqual(argvOf(shell, curlCommand({ method: '$HOME', path: '/x' }, undefined), dir).slice(0, 2), ['-X', '$HOME']);
      for (const method of [`GET $(touch ${canary})`, `GET;touch ${canary}`, 'GET\nX', '', '(GET)']) {
        const cmd = curlCommand({ method, path: '/x' }, undefined);
        assert.deepEqual(argvOf(shell, cmd, dir), ['https://api.example.com/x', '-H', 'Authorization: Bearer tok-123'], cmd);
      }
    }
    assert.ok(shells.length > 0);
    assert.equal(existsSync(canary), false, 'a pasted command ran a command from the index');
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('issue 18: the copied command keeps its shape, and $API_TOKEN for the shell to expand', () => {
  assert.equal(
    curlCommand({ method: 'get', path: '/v1/users/{id}' }, 'https://api.example.com'),
    `curl -X GET 'https://api.example.com/v1/users/{id}' \\\n  -H "Authorization: Bearer $API_TOKEN"`,
  );
  assert.equal(
    curlCommand({ method: 'post', path: '/v1/users' }),
    `curl -X POST 'https://api.example.com/v1/users' \\\n  -H "Authorization: Bearer $API_TOKEN" \\\n  -H 'Content-Type: application/json' \\\n  -d '{}'`,
  );
});

test('issue 18: in Chromium, safeHref agrees with the URL parser links use (page context, page origin as base)', async () => {
  const { chromium } = await import('playwright-core');
  // Serves src/element.js to a page on 127.0.0.1: the module as readers load it, no engine needed.
  const server = createServer((req, res) => {
    if (req.url === '/src/element.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(join(src, 'element.js')));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><title>t</title><script type="module" src="/src/element.js"></script><aidocs-search></aidocs-search>');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/guides/page`);
    await page.waitForFunction(() => customElements.get('aidocs-search'));
    const hostile = HOSTILE.filter((u) => typeof u === 'string');
    const safe = SAFE.map((u) => u.replace('docs.example.com', new URL(origin).host));
    const got = await page.evaluate(
      async ([hostile, safe]) => {
        const { safeHref } = await import('/src/element.js');
        // What an <a href> built from each URL points at, as Chromium parses it.
        const target = (u) => {
          const a = document.createElement('a');
          a.setAttribute('href', u);
          return { protocol: a.protocol, origin: a.origin };
        };
        return {
          hostile: hostile.map((u) => [u, safeHref(u), target(u)]),
          safe: safe.map((u) => [u, safeHref(u), target(u)]),
        };
      },
      [hostile, safe],
    );
    for (const [u, href, a] of got.hostile) {
      assert.equal(href, null, JSON.stringify(u));
      // Each refused URL is one Chromium would indeed send elsewhere than this site over http(s).
      if (u.trim()) assert.ok(!['http:', 'https:'].includes(a.protocol) || a.origin !== origin, `${JSON.stringify(u)} ${JSON.stringify(a)}`);
    }
    for (const [u, href, a] of got.safe) {
      assert.equal(href, u);
      assert.ok(['http:', 'https:'].includes(a.protocol), `${JSON.stringify(u)} ${JSON.stringify(a)}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
});
