import artifact from '../../../models/prompt-classifier-v2.json';
import { ClassifierArtifact, loadClassifier, PromptClassifier } from './prompt-classifier';

/**
 * The committed model, decoded when the library loads (boot), so no prompt waits for it. Retrain
 * with tools/train/guardrails-classifier.mjs; a new id is a new model version.
 */
export const DEFAULT_CLASSIFIER: PromptClassifier = loadClassifier(artifact as ClassifierArtifact);
