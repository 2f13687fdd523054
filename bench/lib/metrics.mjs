// BEIR-style metrics over ranked ids, the definitions `aidocs-index eval` uses (trec_eval's nDCG with
// linear gains), so an engine's figures here and ours from the CLI are comparable.

export function ndcg(ranked, rels, k = 10) {
  let dcg = 0;
  ranked.slice(0, k).forEach((d, i) => {
    dcg += (rels.get(d) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...rels.values()].filter((r) => r > 0).sort((a, b) => b - a);
  let idcg = 0;
  ideal.slice(0, k).forEach((r, i) => {
    idcg += r / Math.log2(i + 2);
  });
  return idcg === 0 ? 0 : dcg / idcg;
}

export function recall(ranked, rels, k = 10) {
  const relevant = [...rels.values()].filter((r) => r > 0).length;
  if (!relevant) return 0;
  return ranked.slice(0, k).filter((d) => (rels.get(d) ?? 0) > 0).length / relevant;
}

export function mrr(ranked, rels, k = 10) {
  const i = ranked.slice(0, k).findIndex((d) => (rels.get(d) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Mean nDCG@10, Recall@10, MRR@10, found@10 (a relevant document in the top 10) and empty answers. */
export function score(runs, qrels) {
  const sums = { ndcg10: 0, recall10: 0, mrr10: 0, found10: 0, empty: 0 };
  let n = 0;
  for (const [qid, ranked] of runs) {
    const rels = qrels.get(qid);
    if (!rels) continue;
    n += 1;
    sums.ndcg10 += ndcg(ranked, rels);
    sums.recall10 += recall(ranked, rels);
    sums.mrr10 += mrr(ranked, rels);
    sums.found10 += ranked.slice(0, 10).some((d) => (rels.get(d) ?? 0) > 0) ? 1 : 0;
    sums.empty += ranked.length === 0 ? 1 : 0;
  }
  return {
    queries: n,
    ndcg10: sums.ndcg10 / n,
    recall10: sums.recall10 / n,
    mrr10: sums.mrr10 / n,
    found10: sums.found10 / n,
    empty: sums.empty,
  };
}

export function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
}
