import { FeatureConfig, runToEnd, SparseVector, weightedSumInTurns } from './features';
import { promptSegments } from './segments';

/**
 * How a prompt's score is taken: `whole` scores the prompt as one text; `max-over-sentences` takes
 * the highest of the whole prompt's score and each of its sentences' (segments.ts), for a model
 * trained to recognise an injection sentence carried by an ordinary request.
 */
export type ClassifierScoring = 'whole' | 'max-over-sentences';

/**
 * The committed model artifact (libs/guardrails/models/<id>.json), written by
 * tools/train/guardrails-classifier.mjs: logistic-regression weights over hashed features, quantized
 * to signed bytes (`weights`, base64) with one `scale`, and the threshold calibrated at training.
 */
export interface ClassifierArtifact {
  id: string;
  features: FeatureConfig;
  bias: number;
  scale: number;
  threshold: number;
  scoring: ClassifierScoring;
  weights: string;
  training: Record<string, unknown>;
}

export interface PromptClassifier {
  /** Model version, e.g. `prompt-classifier-v2`; part of the screen's ruleset_version. */
  readonly id: string;
  /** The calibrated threshold (the default of `input_screen.classifier_threshold`). */
  readonly threshold: number;
  /** Probability-like score in [0, 1] that `text` (normalized) is an injection or jailbreak. */
  score(text: string): number;
  /**
   * The same score, bit for bit, computed at most TURN_CHARS characters at a time with `pause()`
   * awaited in between: the request path's form, so a long prompt holds the event loop for one
   * turn's work at a time, never for the whole prompt.
   */
  scoreInTurns(text: string, pause?: () => Promise<void>): Promise<number>;
}

/**
 * The most text scored in one turn of the event loop, in UTF-16 code units: the units (the prompt,
 * its sentences) are scored whole, but a unit longer than this is counted a turn at a time
 * (weightedSumInTurns), and short units are grouped into turns of about this much text. A turn
 * of random text, the most expensive kind, measured 2–3 ms of one core (docs/benchmarks.md).
 */
export const TURN_CHARS = 16_384;

/** The linear score of a feature vector (weights already scaled). */
export function linearScore(v: SparseVector, weights: ArrayLike<number>, bias: number): number {
  let z = bias;
  for (let k = 0; k < v.indices.length; k++) z += weights[v.indices[k]] * v.values[k];
  return z;
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Yields to the event loop: I/O and timers due run before the next turn. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Checks the artifact's shape and decodes its weights once; a bad artifact fails at boot. */
export function loadClassifier(artifact: ClassifierArtifact): PromptClassifier {
  const { id, features, bias, scale, threshold, scoring } = artifact;
  if (typeof id !== 'string' || !/^[a-z0-9-]+$/.test(id)) throw new Error('classifier artifact: bad id');
  if (!Number.isInteger(features?.bits) || features.bits < 8 || features.bits > 24) throw new Error('classifier artifact: bad feature bits');
  // A missing floor or gram length would make every score NaN, and NaN never reaches a threshold:
  // a damaged artifact would let everything through instead of failing at boot.
  const { charMin, charMax, wordFloor, charFloor } = features;
  if (!Number.isInteger(charMin) || !Number.isInteger(charMax) || charMin < 1 || charMax < charMin || charMax > 8) throw new Error('classifier artifact: bad character gram lengths');
  if (!(wordFloor >= 0 && Number.isFinite(wordFloor)) || !(charFloor >= 0 && Number.isFinite(charFloor))) throw new Error('classifier artifact: bad feature floors');
  if (!(threshold >= 0 && threshold <= 1) || !Number.isFinite(bias) || !(scale > 0)) throw new Error('classifier artifact: bad numbers');
  if (scoring !== 'whole' && scoring !== 'max-over-sentences') throw new Error('classifier artifact: bad scoring');
  const bytes = Buffer.from(artifact.weights, 'base64');
  if (bytes.length !== 1 << features.bits) throw new Error(`classifier artifact: ${bytes.length} weights for ${features.bits} bits`);
  // Kept as bytes (a quarter of the memory of floats); the one scale is applied to the sum.
  const quantized = Int8Array.from(bytes);
  // The highest score of the units: the text, and under max-over-sentences each sentence. Yields
  // where a turn's worth of text has been scored; with turnChars Infinity it never does.
  function* scoreUnits(text: string, turnChars: number): Generator<void, number, void> {
    const units = scoring === 'max-over-sentences' ? [text, ...promptSegments(text)] : [text];
    let best = 0;
    let sinceTurn = 0;
    for (const unit of units) {
      if (sinceTurn > 0 && sinceTurn + unit.length > turnChars) {
        yield;
        sinceTurn = 0;
      }
      const sum = yield* weightedSumInTurns(unit, features, quantized, turnChars);
      best = Math.max(best, sigmoid(bias + scale * sum));
      sinceTurn += unit.length;
    }
    return best;
  }
  return {
    id,
    threshold,
    score: (text) => runToEnd(scoreUnits(text, Infinity)),
    scoreInTurns: async (text, pause = nextTurn) => {
      const run = scoreUnits(text, TURN_CHARS);
      try {
        for (;;) {
          const step = run.next();
          if (step.done) return step.value;
          await pause();
        }
      } finally {
        // Ends the run early if a pause threw: its finally blocks give back what it borrowed.
        run.return(0);
      }
    },
  };
}
