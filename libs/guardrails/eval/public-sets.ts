/**
 * Labelled screening data for the prompt classifier: two public sets (public/, with their licences
 * in public/README.md), the project's own evaluation set (screen-eval.jsonl), the project's own
 * documentation in chunks (project-documents.jsonl: benign text as the ingest screen meets it) and a
 * check of benign prompts crowded with trigger words (trigger-words-benign.jsonl, written by the
 * project). Each set is split by a fixed hash into a training part and a held-out part that training, threshold
 * calibration and tuning never see. Shared by the training script, the evaluation report and the
 * quality gate, so all three split and count the same way.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalSet } from './screen-eval-set';

export interface LabelledPrompt {
  text: string;
  attack: boolean;
  /** The set the prompt comes from. */
  source: string;
  lang: string;
  /** The attack or benign family, where the set names one. */
  family?: string;
}

export interface ScreeningSet {
  name: string;
  description: string;
  prompts: LabelledPrompt[];
  /** Whether the classifier's training may use the set's training part. */
  trainable: boolean;
}

/** Fraction of each (set, label) group held out. */
export const HELD_OUT_FRACTION = 0.25;

const PUBLIC_DIR = join(__dirname, 'public');
export const TRIGGER_WORDS_BENIGN_PATH = join(__dirname, 'trigger-words-benign.jsonl');
/** Written by tools/train/project-documents.mjs (a snapshot of the project's docs, cut into chunks). */
export const PROJECT_DOCUMENTS_PATH = join(__dirname, 'project-documents.jsonl');

function readRows(file: string, source: string): LabelledPrompt[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      if (typeof row.text !== 'string' || typeof row.attack !== 'boolean') throw new Error(`${file} line ${i + 1}: needs text and attack`);
      return { text: row.text, attack: row.attack, source, lang: typeof row.lang === 'string' ? row.lang : 'en', ...(typeof row.family === 'string' ? { family: row.family } : {}) };
    });
}

/** Every set, in report order. */
export function loadScreeningSets(): ScreeningSet[] {
  return [
    {
      name: 'deepset',
      description: 'deepset/prompt-injections, train split (English and German)',
      prompts: readRows(join(PUBLIC_DIR, 'deepset-train.jsonl'), 'deepset'),
      trainable: true,
    },
    {
      name: 'jackhhao',
      description: 'jackhhao/jailbreak-classification, a fixed 60% sample (mostly English role-play)',
      prompts: readRows(join(PUBLIC_DIR, 'jackhhao-dev.jsonl'), 'jackhhao'),
      trainable: true,
    },
    {
      name: 'in-repo',
      description: 'libs/guardrails/eval/screen-eval.jsonl (written by the project; six languages, obfuscations, benign look-alikes)',
      prompts: loadEvalSet().map((p) => ({ text: p.text, attack: p.label === 'attack', source: 'in-repo', lang: p.language })),
      trainable: true,
    },
    {
      name: 'project-docs',
      description: "the project's own documentation cut into chunks by kb-api's chunker (benign documents, as the ingest screen meets them)",
      prompts: readRows(PROJECT_DOCUMENTS_PATH, 'project-docs'),
      trainable: true,
    },
    {
      name: 'trigger-words-benign',
      description: 'benign prompts crowded with trigger words (written by the project; never trained on)',
      prompts: readRows(TRIGGER_WORDS_BENIGN_PATH, 'trigger-words-benign'),
      trainable: false,
    },
  ];
}

/** Prompts written for the project by reviewers who had not seen the rules, by attack and benign family. */
export interface IndependentProbeSet {
  name: string;
  description: string;
  prompts: LabelledPrompt[];
  /** Whether the default rules were extended after reading this set's misses (then it is in-sample for the rules). */
  readWhileWritingRules: boolean;
}

/**
 * Red-team probes: neither layer trains on them (the classifier never sees them). The first set was written by a
 * reviewer who then read the rules to explain the misses, and the rules were extended after reading them; the second
 * was written afterwards by another reviewer who saw neither the rules nor the first set, and is held out.
 */
export function loadIndependentProbeSets(): IndependentProbeSet[] {
  return [
    {
      name: 'probes-a',
      description: 'libs/guardrails/eval/independent-probes-a.jsonl (a red-team reviewer, ten attack families in seven languages, benign look-alikes)',
      prompts: readRows(join(__dirname, 'independent-probes-a.jsonl'), 'probes-a'),
      readWhileWritingRules: true,
    },
    {
      name: 'probes-b',
      description: 'libs/guardrails/eval/independent-probes-b.jsonl (a second reviewer, written after the rules, without seeing them or probes-a)',
      prompts: readRows(join(__dirname, 'independent-probes-b.jsonl'), 'probes-b'),
      readWhileWritingRules: false,
    },
  ];
}

const rank = (p: LabelledPrompt) => createHash('sha256').update(`${p.source}\u0000${p.text}`).digest('hex');

/**
 * The held-out part of a set: within each label, the prompts whose hash ranks in the first
 * HELD_OUT_FRACTION (rounded), so the split is stratified, fixed and independent of file order.
 * Repeated texts share a hash and so always land on the same side.
 */
export function splitSet(prompts: LabelledPrompt[]): { train: LabelledPrompt[]; heldOut: LabelledPrompt[] } {
  const heldOut = new Set<LabelledPrompt>();
  for (const attack of [true, false]) {
    const group = prompts.filter((p) => p.attack === attack).map((p) => ({ p, h: rank(p) }));
    const cut = group.map((g) => g.h).sort()[Math.round(group.length * HELD_OUT_FRACTION)] ?? '';
    for (const g of group) if (g.h < cut) heldOut.add(g.p);
  }
  return { train: prompts.filter((p) => !heldOut.has(p)), heldOut: prompts.filter((p) => heldOut.has(p)) };
}

/** A set's training and held-out parts; a set that is never trained on is held out whole. */
export function partsOf(set: ScreeningSet): { train: LabelledPrompt[]; heldOut: LabelledPrompt[] } {
  return set.trainable ? splitSet(set.prompts) : { train: [], heldOut: set.prompts };
}
