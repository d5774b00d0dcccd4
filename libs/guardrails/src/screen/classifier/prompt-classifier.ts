import { FeatureConfig, SparseVector, weightedSum } from './features';
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
   * The same score, computed one scoring unit at a time with `pause()` awaited between units once
   * WINDOW_CHARS of text have been scored since the last pause: the request path's form, so one
   * long prompt holds the event loop for one window's work at a time, never for the whole prompt.
   */
  scoreInTurns(text: string, pause?: () => Promise<void>): Promise<number>;
}

/**
 * The longest text scored as one unit, in UTF-16 code units. Longer texts (and longer sentences) are
 * scored as windows of this length overlapping by half, so every stretch of WINDOW_CHARS / 2 lies
 * whole inside some window, and no single unit costs more than one window (about 8 ms of one core
 * for random text, the most expensive kind). Above every prompt of the public sets (12k at most), so
 * the model is scored as it was trained; a prompt this long dilutes any attack in it anyway.
 */
export const WINDOW_CHARS = 16_384;

/** `text` itself when it fits in a window, else windows of WINDOW_CHARS overlapping by half (the last ends at the text's end). */
export function windowsOf(text: string): string[] {
  if (text.length <= WINDOW_CHARS) return [text];
  const windows: string[] = [];
  const stride = WINDOW_CHARS / 2;
  for (let start = 0; ; start += stride) {
    if (start + WINDOW_CHARS >= text.length) {
      windows.push(text.slice(text.length - WINDOW_CHARS));
      return windows;
    }
    windows.push(text.slice(start, start + WINDOW_CHARS));
  }
}

/** Yields to the event loop: I/O and timers due run before the next unit is scored. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The raw linear score of a feature vector (weights already scaled). */
export function linearScore(v: SparseVector, weights: ArrayLike<number>, bias: number): number {
  let z = bias;
  for (let k = 0; k < v.indices.length; k++) z += weights[v.indices[k]] * v.values[k];
  return z;
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

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
  const scoreOf = (unit: string) => sigmoid(bias + scale * weightedSum(unit, features, quantized));
  // The units a text's score is the highest of: the text, and under max-over-sentences each
  // sentence; any of them longer than a window as its windows.
  function* unitsOf(text: string): Generator<string> {
    yield* windowsOf(text);
    if (scoring === 'max-over-sentences') for (const segment of promptSegments(text)) yield* windowsOf(segment);
  }
  return {
    id,
    threshold,
    score: (text) => {
      let best = 0;
      for (const unit of unitsOf(text)) best = Math.max(best, scoreOf(unit));
      return best;
    },
    scoreInTurns: async (text, pause = nextTurn) => {
      let best = 0;
      let sincePause = 0;
      for (const unit of unitsOf(text)) {
        if (sincePause + unit.length > WINDOW_CHARS) {
          await pause();
          sincePause = 0;
        }
        best = Math.max(best, scoreOf(unit));
        sincePause += unit.length;
      }
      return best;
    },
  };
}
