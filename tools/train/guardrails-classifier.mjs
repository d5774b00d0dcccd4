// Trains the input screen's prompt classifier and writes its artifact
// (libs/guardrails/models/prompt-classifier-v2.json). Deterministic: the same data and this script
// always produce the same bytes (fixed seed, fixed order, integer feature hashing).
//   node -r ./tools/swc-register.cjs tools/train/guardrails-classifier.mjs [--check]
// Data: the training part of each trainable set in libs/guardrails/eval/public-sets.ts (the fixed hash
// split); the held-out parts are never read here. The threshold is calibrated on out-of-fold scores
// of the training part only, scored as the screen scores (the highest of the whole prompt and its
// sentences). --check rebuilds the artifact in memory and exits 1 when it differs
// from the committed file.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { normalizeText, DEFAULT_SETTINGS } = require('@platform/guardrails');
const { featurize } = require('../../libs/guardrails/src/screen/classifier/features.ts');
const { linearScore, sigmoid } = require('../../libs/guardrails/src/screen/classifier/prompt-classifier.ts');
const { promptSegments, MIN_SEGMENT_CHARS } = require('../../libs/guardrails/src/screen/classifier/segments.ts');
const { loadScreeningSets, splitSet } = require('../../libs/guardrails/eval/public-sets.ts');
// Seeded, so shuffles and folds replay exactly.
const { seededRandom: random } = require('../../libs/shared/testing/src/seeded-random.ts');

const MODEL_ID = 'prompt-classifier-v2';
const SCORING = 'max-over-sentences';
const ARTIFACT = join(root, 'libs', 'guardrails', 'models', `${MODEL_ID}.json`);
const COMMAND = 'node -r ./tools/swc-register.cjs tools/train/guardrails-classifier.mjs';
const FEATURES = { bits: 20, charMin: 2, charMax: 4, wordFloor: 12, charFloor: 60 };
const HYPER = { seed: 20240521, epochs: 40, learningRate: 0.2, l2: 0, folds: 5, maxFalsePositives: 0.01 };

const { values: args } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

/** The screen's normalization with the default settings (what the classifier sees at runtime). */
const n = DEFAULT_SETTINGS;
const normalization = {
  enabled: true,
  nfkc: n['normalization.nfkc'],
  strip_zero_width: n['normalization.strip_zero_width'],
  casefold: n['normalization.casefold'],
  fold_confusables: n['normalization.fold_confusables'],
  decode_base64_blobs: false,
};


/**
 * Logistic regression by stochastic gradient descent with per-coordinate (AdaGrad) step sizes and
 * L2 decay. Each (set, label) group carries the same total weight, so no set or class dominates.
 */
function train(examples, seed) {
  const size = 1 << FEATURES.bits;
  const w = new Float64Array(size);
  const g2 = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const groups = new Map();
  for (const e of examples) groups.set(e.group, (groups.get(e.group) ?? 0) + 1);
  const weightOf = (e) => examples.length / (groups.size * groups.get(e.group));
  const order = examples.map((_, i) => i);
  const next = random(seed);
  for (let epoch = 0; epoch < HYPER.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const e = examples[i];
      const p = sigmoid(linearScore(e.x, w, bias));
      const err = (p - (e.y ? 1 : 0)) * weightOf(e);
      for (let k = 0; k < e.x.indices.length; k++) {
        const idx = e.x.indices[k];
        const grad = err * e.x.values[k] + HYPER.l2 * w[idx];
        g2[idx] += grad * grad;
        w[idx] -= (HYPER.learningRate * grad) / Math.sqrt(g2[idx]);
      }
      biasG2 += err * err;
      bias -= (HYPER.learningRate * err) / Math.sqrt(biasG2);
    }
  }
  return { w, bias };
}

/** Signed bytes with one scale: 1/4 of the float size, and the rounding error is far below the margin. */
function quantize(w) {
  let max = 0;
  for (const v of w) max = Math.max(max, Math.abs(v));
  const scale = max / 127;
  const q = Int8Array.from(w, (v) => Math.round(v / scale));
  return { q, scale, weights: Float64Array.from(q, (v) => v * scale) };
}

const round = (x, digits) => Number(x.toFixed(digits));

const featuresOf = (text) => featurize(text, FEATURES);
const sets = loadScreeningSets().filter((s) => s.trainable);
const examples = sets.flatMap((set) =>
  splitSet(set.prompts).train.map((p) => {
    const text = normalizeText(p.text, normalization);
    return {
      x: featuresOf(text),
      sentences: promptSegments(text).map(featuresOf),
      y: p.attack,
      group: `${set.name}:${p.attack}`,
      set: set.name,
      fold: 0,
    };
  }),
);

/**
 * The examples one model is trained on, from the prompts of its training folds. The screen scores a
 * prompt by its best sentence too, so every sentence of a benign prompt is a benign example (with
 * the prompt's group and weight: none of it is an attack). Which sentence of an attack carries the
 * attack is not labelled: a first model over the whole prompts picks, for each attack, the sentence
 * it scores highest, and the final model learns that sentence as an attack as well (one round of
 * multiple-instance learning).
 */
function trainWithSentences(prompts, seed) {
  const base = prompts.concat(prompts.filter((e) => !e.y).flatMap((e) => e.sentences.map((x) => ({ ...e, x }))));
  const first = train(base, seed);
  const attackSentences = prompts
    .filter((e) => e.y && e.sentences.length > 0)
    .map((e) => {
      let best = e.sentences[0];
      for (const x of e.sentences) if (linearScore(x, first.w, first.bias) > linearScore(best, first.w, first.bias)) best = x;
      return { ...e, x: best };
    });
  return train(base.concat(attackSentences), seed);
}

/** The screen's score: the highest of the whole prompt's and its sentences'. */
function scoreOf(e, weights, bias) {
  let best = sigmoid(linearScore(e.x, weights, bias));
  for (const x of e.sentences) best = Math.max(best, sigmoid(linearScore(x, weights, bias)));
  return best;
}
// Folds by position in a seeded shuffle, for out-of-fold scores.
const foldOrder = examples.map((_, i) => i);
const shuffle = random(HYPER.seed ^ 0x5bd1e995);
for (let i = foldOrder.length - 1; i > 0; i--) {
  const j = Math.floor(shuffle() * (i + 1));
  [foldOrder[i], foldOrder[j]] = [foldOrder[j], foldOrder[i]];
}
foldOrder.forEach((exampleIndex, position) => (examples[exampleIndex].fold = position % HYPER.folds));

const outOfFold = new Float64Array(examples.length);
for (let fold = 0; fold < HYPER.folds; fold++) {
  const model = trainWithSentences(examples.filter((e) => e.fold !== fold), HYPER.seed + fold);
  const { weights } = quantize(model.w);
  examples.forEach((e, i) => {
    if (e.fold === fold) outOfFold[i] = scoreOf(e, weights, model.bias);
  });
}

/**
 * The lowest threshold at which out-of-fold false positives stay within the budget on every set's
 * benign prompts (the strictest set decides), on a 0.005 grid.
 */
function calibrate() {
  for (let t = 0.3; t < 0.995; t += 0.005) {
    const threshold = round(t, 3);
    const ok = sets.every((set) => {
      const benign = examples.map((e, i) => ({ e, s: outOfFold[i] })).filter(({ e }) => e.set === set.name && !e.y);
      return benign.filter(({ s }) => s >= threshold).length <= HYPER.maxFalsePositives * benign.length;
    });
    if (ok) return threshold;
  }
  return 0.995;
}
const threshold = calibrate();

const outOfFoldFigures = Object.fromEntries(
  sets.map((set) => {
    const rows = examples.map((e, i) => ({ e, s: outOfFold[i] })).filter(({ e }) => e.set === set.name);
    const attacks = rows.filter(({ e }) => e.y);
    const benign = rows.filter(({ e }) => !e.y);
    return [
      set.name,
      {
        detection: attacks.length === 0 ? null : round(attacks.filter(({ s }) => s >= threshold).length / attacks.length, 4),
        false_positives: round(benign.filter(({ s }) => s >= threshold).length / benign.length, 4),
      },
    ];
  }),
);

const final = trainWithSentences(examples, HYPER.seed);
const { q, scale } = quantize(final.w);
const artifact = {
  id: MODEL_ID,
  features: FEATURES,
  bias: round(final.bias, 8),
  scale,
  threshold,
  scoring: SCORING,
  training: {
    command: COMMAND,
    algorithm: `logistic regression, AdaGrad SGD (L2 weight in the hyperparameters); hashed word 1-2-grams and character ${FEATURES.charMin}-${FEATURES.charMax}-grams of the normalized prompt and of its sentences (at least ${MIN_SEGMENT_CHARS} characters); benign prompts' sentences as benign examples, each attack's highest-scoring sentence under a first model as an attack example; a prompt scores the highest of itself and its sentences`,
    hyperparameters: HYPER,
    data: Object.fromEntries(sets.map((set) => [set.name, { description: set.description, training_rows: examples.filter((e) => e.set === set.name).length }])),
    threshold_calibration: `lowest threshold with out-of-fold false positives <= ${HYPER.maxFalsePositives * 100}% on every set (${HYPER.folds} folds of the training part)`,
    out_of_fold: outOfFoldFigures,
  },
  weights: Buffer.from(q.buffer, q.byteOffset, q.byteLength).toString('base64'),
};
const text = `${JSON.stringify(artifact, null, 2)}\n`;

process.stderr.write(`${JSON.stringify({ threshold, out_of_fold: outOfFoldFigures })}\n`);
if (args.check) {
  const same = readFileSync(ARTIFACT, 'utf8') === text;
  process.stderr.write(same ? 'artifact reproduced exactly\n' : 'artifact differs from the committed file\n');
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(ARTIFACT, text);
  process.stderr.write(`wrote ${relative(root, ARTIFACT)} (${text.length} bytes)\n`);
}
