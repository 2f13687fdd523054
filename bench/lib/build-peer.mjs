#!/usr/bin/env node
// One peer's index build in its own process, so run.mjs can time it and read its peak memory
// (/usr/bin/time): node build-peer.mjs KEY PAGES.jsonl OUT_FILE
import { readFileSync, writeFileSync } from 'node:fs';

const [key, pagesFile, out] = process.argv.slice(2);
const peer = await import(`./peers/${key}.mjs`);
const docs = readFileSync(pagesFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => {
    const p = JSON.parse(l);
    return { id: p.id, title: p.title, text: p.text, ...(peer.needsVectors ? { vector: p.vector } : {}) };
  });
writeFileSync(out, await peer.build(docs));
