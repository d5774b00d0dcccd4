// Ranking measures of the SciFact evaluation (binary relevance, BEIR's definitions) and the fixed
// dev / held-out split of its claims.
const { createHash } = require('node:crypto');

/**
 * A claim's part, fixed by a hash of its id (not by its position in the file or by anything the
 * retrieval sees): about half the claims are dev (tuning is allowed on them), the rest held out.
 */
function scifactSplit(claimId) {
  return createHash('sha256').update(`scifact-split:${claimId}`).digest()[0] < 128 ? 'dev' : 'held-out';
}

/** nDCG@k with binary gains: DCG of the ranking over DCG of an ideal ranking of the relevant documents. */
function ndcgAt(k, ranked, relevant) {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Share of the relevant documents among the first k. */
function recallAt(k, ranked, relevant) {
  if (relevant.size === 0) return 0;
  return ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
}

/** 1 / rank of the first relevant document within the first k, else 0. */
function reciprocalRankAt(k, ranked, relevant) {
  const i = ranked.slice(0, k).findIndex((id) => relevant.has(id));
  return i < 0 ? 0 : 1 / (i + 1);
}

module.exports = { scifactSplit, ndcgAt, recallAt, reciprocalRankAt };
