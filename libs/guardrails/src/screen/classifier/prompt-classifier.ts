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
}

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
  const scoreOf = (text: string) => sigmoid(bias + scale * weightedSum(text, features, quantized));
  return {
    id,
    threshold,
    score: (text) => {
      let best = scoreOf(text);
      if (scoring === 'max-over-sentences') for (const segment of promptSegments(text)) best = Math.max(best, scoreOf(segment));
      return best;
    },
  };
}
