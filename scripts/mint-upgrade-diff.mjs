#!/usr/bin/env node
// Differential run of `indexer/src/mint_upgrade.rs` against Mintlify's own mint.json upgrade.
//
//   MINTLIFY_VALIDATION=/path/to/node_modules/@mintlify/validation/dist/index.js \
//     node scripts/mint-upgrade-diff.mjs [COUNT=2000] [SEED=1]
//
// Generates COUNT random mint.json configurations (tabs, anchors, versions and locales, nested
// groups, group and division versions, external links, openapi on divisions, hidden divisions,
// primaryTab/topAnchor), keeps those Mintlify's schema accepts, upgrades each with
// `validateMintConfig` + `upgradeToDocsConfig` (the reference) and with the Rust port (through
// the ignored test `write_upgrades_for_the_differential_run`), and prints every difference.
// Needs `npm install @mintlify/validation` somewhere; not run by `./dev.sh test`.
import { mkdtempSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';

const count = Number(process.argv[2] ?? 2000);
let seed = Number(process.argv[3] ?? 1);
const validation = await import(process.env.MINTLIFY_VALIDATION ?? '@mintlify/validation');

// mulberry32: a linear congruence in doubles loses bits past 2^53 and cycles after a few hundred
// configurations.
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (a) => a[Math.floor(rand() * a.length)];
const chance = (p) => rand() < p;
const DIRS = ['', 'api', 'api/v2', 'guides', 'guides/deep', 'v1', 'v2', 'sdk', 'ap'];
const VERSIONS = ['v1', 'v2', 'v3'];
const page = () => {
  if (chance(0.1)) return pick(['GET /users', 'spec.json POST /items', '/api/x', './guides/y', 'api/../guides/z']);
  const d = pick(DIRS);
  return (d ? d + '/' : '') + pick(['a', 'b', 'c', 'intro', 'x']);
};
const group = (depth, names) => {
  const g = { group: pick(['Start', 'API', 'More', '']), pages: [] };
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) g.pages.push(depth < 2 && chance(0.25) ? group(depth + 1, names) : page());
  if (names.length && chance(0.25)) g.version = pick(names);
  if (chance(0.15)) g.icon = 'book';
  if (chance(0.05)) g.iconType = 'solid';
  return g;
};
const division = (names) => {
  const d = { name: pick(['API', 'Guides', 'SDK', ' Padded ']), url: chance(0.15) ? pick(['https://x.dev', 'http://y.dev/z']) : pick(DIRS.slice(1)) };
  if (names.length && chance(0.3)) d.version = pick(names);
  if (chance(0.2)) d.openapi = pick(['/spec.json', 'https://x.dev/o.json', '/api/o.yaml']);
  if (chance(0.15)) d.isDefaultHidden = chance(0.8);
  return d;
};
const config = () => {
  const c = { name: 'x', favicon: '/f.png', colors: { primary: '#112233' }, navigation: [] };
  const versioned = chance(0.3);
  if (versioned) {
    if (chance(0.2)) c.versions = [{ name: 'v1', locale: 'en' }, { name: 'v2', locale: 'fr' }];
    else if (chance(0.15)) c.versions = [{ name: 'v1', url: 'https://v1.x.dev' }, { name: 'v2', url: 'https://v2.x.dev' }];
    else c.versions = VERSIONS.slice(0, 1 + Math.floor(rand() * 3)).map((v) => (chance(0.3) ? { name: v } : v));
  }
  const names = (c.versions ?? []).map((v) => (typeof v === 'string' ? v : v.name));
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) c.navigation.push(group(0, names));
  if (chance(0.5)) c.tabs = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => division(names));
  if (chance(0.4)) {
    c.anchors = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => division(names));
    c.anchors.forEach((a) => chance(0.3) && (a.icon = 'code'));
  }
  if (chance(0.1)) c.primaryTab = { name: 'Home', ...(chance(0.5) ? { isDefaultHidden: chance(0.5) } : {}) };
  if (chance(0.1)) c.topAnchor = { name: 'Top', ...(chance(0.5) ? { icon: 'house' } : {}) };
  if (chance(0.2)) c.openapi = pick(['spec.json', '/api/o.yaml']);
  return c;
};

const dir = mkdtempSync(join(tmpdir(), 'mint-upgrade-'));
let valid = 0, invalid = 0;
const distinct = new Set();
const expected = new Map();
for (let i = 0; i < count; i++) {
  const c = config();
  const r = validation.validateMintConfig(c);
  if (!r.success) { invalid++; if (process.env.WHY) console.log(JSON.stringify(r.error?.issues?.slice(0, 2).map((x) => [x.path.join("."), x.message]))); continue; }
  valid++;
  distinct.add(JSON.stringify(c));
  writeFileSync(join(dir, `${i}.json`), JSON.stringify(c));
  expected.set(`${i}`, JSON.parse(JSON.stringify(validation.upgradeToDocsConfig(r.data).navigation)));
}
execFileSync('cargo', ['test', '-q', '--release', '-p', 'aidocs-index', '--lib', 'write_upgrades_for_the_differential_run', '--', '--ignored'], {
  env: { ...process.env, MINT_UPGRADE_CASES: dir }, stdio: ['ignore', 'ignore', 'inherit'],
});
let differ = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith('.rust'))) {
  const id = f.slice(0, -5);
  const ours = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  if (!isDeepStrictEqual(ours, expected.get(id))) {
    if (differ++ < 5) {
      console.log(`differs: ${join(dir, id)}.json`);
      console.log('  mintlify:', JSON.stringify(expected.get(id)));
      console.log('  ours:    ', JSON.stringify(ours));
    }
  }
}
console.log(`${valid} configurations Mintlify accepts (${distinct.size} distinct; ${invalid} refused), ${differ} upgraded differently (cases in ${dir})`);
process.exit(differ ? 1 : 0);
