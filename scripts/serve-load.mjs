#!/usr/bin/env node
// Load test of `aidocs-index serve` (issue 18), on 127.0.0.1 only, bounded in count and time.
//
//   node scripts/serve-load.mjs [--slow 50] [--requests 400] [--concurrency 20] [--bin PATH]
//
// Serves a temporary directory (a 20 MB file and small ones), opens SLOW clients that request the big
// file and never read, sends `Content-Length: 99999999999` requests (GET and POST), then REQUESTS
// normal GETs, CONCURRENCY at a time, each on a new connection, and one full GET of the big file.
// Prints errors and latency percentiles. Exits 1 if a normal request failed, a huge request was not
// answered 413, or the server died. The binary: --bin, $AIDOCS_INDEX_BIN, else the newest of
// target/{release,debug}/aidocs-index.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const SLOW = Number(opt('slow', 50));
const REQUESTS = Number(opt('requests', 400));
const CONCURRENCY = Number(opt('concurrency', 20));
const BIG = 20 << 20;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin =
  opt('bin') ??
  process.env.AIDOCS_INDEX_BIN ??
  [join(repo, 'target', 'release', 'aidocs-index'), join(repo, 'target', 'debug', 'aidocs-index')]
    .filter(existsSync)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!bin) {
  console.error('aidocs-index is not built: cargo build -p aidocs-index (or --bin PATH)');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'aidocs-serve-load-'));
const root = join(work, 'site');
mkdirSync(join(root, '_search', 't'), { recursive: true });
writeFileSync(join(root, 'big.bin'), randomBytes(BIG));
writeFileSync(join(root, 'index.html'), '<!doctype html><h1>home</h1>\n'.repeat(50));
writeFileSync(join(root, 'small.txt'), 'small file\n');
writeFileSync(join(root, 'style.css'), 'body{margin:0}\n'.repeat(200));
writeFileSync(join(root, '_search', 't', 'abc.bin'), randomBytes(3000));
const paths = ['/small.txt', '/', '/style.css', '/_search/t/abc.bin'];

const server = spawn(bin, ['serve', root, '--port', '0', '--host', '127.0.0.1'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let died = null;
server.on('exit', (code, signal) => (died = signal ?? code));
const slow = [];
const guard = setTimeout(() => finish('the load test took over 180 s'), 180_000);

function finish(failure) {
  clearTimeout(guard);
  for (const s of slow) s.destroy();
  if (died === null) server.kill();
  rmSync(work, { recursive: true, force: true });
  if (failure) console.error(`FAIL: ${failure}`);
  process.exit(failure ? 1 : 0);
}

const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/at (http:\/\/[^/\s]+)\//);
    if (m) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
});
const { hostname, port } = new URL(base);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Sends raw bytes on a new connection, resolves with the status line's code and the time taken. */
function raw(bytes) {
  return new Promise((resolve) => {
    const t = performance.now();
    const s = net.connect({ host: hostname, port: Number(port) });
    let got = '';
    s.setTimeout(20_000, () => s.destroy(new Error('no answer in 20 s')));
    s.on('connect', () => s.write(bytes)); // the head only: the body is never sent
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('close', () => resolve({ status: Number(got.split(' ')[1]) || 0, ms: performance.now() - t }));
    s.on('error', () => {});
  });
}

/** A GET on a new connection; resolves with status, body length and time taken. */
function get(path) {
  return new Promise((resolve) => {
    const t = performance.now();
    const req = http.get(
      { host: hostname, port, path, agent: false, headers: { 'accept-encoding': 'gzip' }, timeout: 20_000 },
      (res) => {
        let n = 0;
        res.on('data', (d) => (n += d.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes: n, ms: performance.now() - t }));
        res.on('error', (e) => resolve({ error: e.message, ms: performance.now() - t }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ error: e.message, ms: performance.now() - t }));
  });
}

const pct = (sorted, p) => sorted[Math.round((sorted.length - 1) * p)] ?? NaN;
const f = (ms) => `${ms.toFixed(1)} ms`;

// 1. Slow clients: ask for the big file, never read (paused sockets stop reading from the kernel).
for (let i = 0; i < SLOW; i++) {
  const s = net.connect({ host: hostname, port: Number(port) });
  s.on('connect', () => {
    s.write('GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n');
    s.pause();
  });
  s.on('error', () => {});
  slow.push(s);
}
await sleep(1500);

// 2. Huge declared bodies.
const huge = [];
for (const method of ['GET', 'POST']) {
  const r = await raw(`${method} / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999\r\n\r\n`);
  huge.push(`${method} → ${r.status || 'no answer'} in ${f(r.ms)}`);
  if (r.status !== 413) {
    console.log(`huge Content-Length: ${huge.join(', ')}`);
    finish(`${method} with Content-Length: 99999999999 was answered ${r.status || 'nothing'}`);
  }
}

// 3. Normal requests, CONCURRENCY at a time.
const lat = [];
const errors = [];
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      const i = next++;
      const r = await get(paths[i % paths.length]);
      if (r.error || r.status !== 200) errors.push(`${paths[i % paths.length]}: ${r.error ?? r.status}`);
      else lat.push(r.ms);
    }
  }),
);
const wall = performance.now() - t0;
const bigGet = await get('/big.bin');
await sleep(200);
lat.sort((a, b) => a - b);

console.log(`server: ${bin}`);
console.log(`slow clients: ${SLOW} holding GET /big.bin (20 MB), never reading`);
console.log(`huge Content-Length: ${huge.join(', ')}`);
console.log(
  `normal requests: ${REQUESTS} (${CONCURRENCY} at a time, a new connection each): ${errors.length} errors; ` +
    `p50 ${f(pct(lat, 0.5))}, p95 ${f(pct(lat, 0.95))}, max ${f(lat.at(-1) ?? NaN)}; ` +
    `${(REQUESTS / (wall / 1000)).toFixed(0)} req/s`,
);
console.log(
  `full GET /big.bin beside them: ${bigGet.error ?? bigGet.status}, ${bigGet.bytes ?? 0} bytes in ${f(bigGet.ms)}`,
);
console.log(`server alive: ${died === null ? 'yes' : `no (${died})`}`);
for (const e of errors.slice(0, 5)) console.log(`  error: ${e}`);
finish(
  died !== null
    ? 'the server died'
    : errors.length
      ? `${errors.length} normal requests failed`
      : bigGet.status !== 200 || bigGet.bytes !== BIG
        ? 'the big file was not served whole'
        : null,
);
