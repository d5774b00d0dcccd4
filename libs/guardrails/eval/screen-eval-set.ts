/**
 * The labelled evaluation set for the input screen's default rules (screen-eval.jsonl beside this
 * file) and the arithmetic of detection and false-positive rates over it. Shared by the quality-gate
 * spec and the report script so both count the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const EVAL_LABELS = ['attack', 'benign'] as const;
export type EvalLabel = (typeof EVAL_LABELS)[number];

/** Attack families of the default rules; benign prompts use them for the family they resemble. */
export const EVAL_CATEGORIES = ['instruction_override', 'prompt_disclosure', 'role_override', 'exfiltration', 'general'] as const;
export type EvalCategory = (typeof EVAL_CATEGORIES)[number];

/** The default rule meant to catch each attack family. */
export const RULE_FOR_CATEGORY: Readonly<Record<Exclude<EvalCategory, 'general'>, string>> = {
  instruction_override: 'ignore_previous',
  prompt_disclosure: 'reveal_system_prompt',
  role_override: 'role_override',
  exfiltration: 'exfiltrate',
};

export interface EvalPrompt {
  id: string;
  text: string;
  label: EvalLabel;
  category: EvalCategory;
  /** ISO 639-1 code of the prompt's language. */
  language: string;
  /** How the prompt is disguised (zero_width, base64, …); absent for plain text. */
  obfuscation?: string;
}

export const EVAL_SET_PATH = join(__dirname, 'screen-eval.jsonl');

const FIELDS = new Set(['id', 'text', 'label', 'category', 'language', 'obfuscation']);

function parseLine(line: string, lineNo: number): EvalPrompt {
  const where = `line ${lineNo}`;
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch (e) {
    throw new Error(`${where}: not JSON (${(e as Error).message})`);
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new Error(`${where}: not an object`);
  const r = row as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!FIELDS.has(key)) throw new Error(`${where}: unknown field ${key}`);
  for (const key of ['id', 'text', 'language'] as const) {
    if (typeof r[key] !== 'string' || (r[key] as string).length === 0) throw new Error(`${where}: ${key} must be a non-empty string`);
  }
  if (!EVAL_LABELS.includes(r.label as EvalLabel)) throw new Error(`${where}: label must be attack or benign`);
  if (!EVAL_CATEGORIES.includes(r.category as EvalCategory)) throw new Error(`${where}: unknown category ${String(r.category)}`);
  if (r.label === 'attack' && r.category === 'general') throw new Error(`${where}: an attack needs an attack category`);
  if (r.obfuscation !== undefined && (typeof r.obfuscation !== 'string' || r.obfuscation.length === 0)) {
    throw new Error(`${where}: obfuscation must be a non-empty string when present`);
  }
  return r as unknown as EvalPrompt;
}

/** Parses JSON lines (blank lines ignored); throws on a malformed row or a repeated id or text. */
export function parseEvalSet(jsonl: string): EvalPrompt[] {
  const prompts: EvalPrompt[] = [];
  const ids = new Set<string>();
  const texts = new Set<string>();
  jsonl.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const prompt = parseLine(line, i + 1);
    if (ids.has(prompt.id)) throw new Error(`line ${i + 1}: id ${prompt.id} repeats`);
    if (texts.has(prompt.text)) throw new Error(`line ${i + 1}: text of ${prompt.id} repeats an earlier prompt`);
    ids.add(prompt.id);
    texts.add(prompt.text);
    prompts.push(prompt);
  });
  return prompts;
}

export function loadEvalSet(file: string = EVAL_SET_PATH): EvalPrompt[] {
  return parseEvalSet(readFileSync(file, 'utf8'));
}

/** What screening said about one prompt. */
export interface EvalOutcome {
  prompt: EvalPrompt;
  flagged: boolean;
  rule_id: string | null;
}

/** `hits` of `total`: detected attacks, or benign prompts wrongly flagged. */
export interface Rate {
  hits: number;
  total: number;
  /** hits / total, or null when there is nothing to count. */
  rate: number | null;
}

export interface EvalGroup {
  detection: Rate;
  falsePositives: Rate;
}

export interface EvalReport {
  overall: EvalGroup;
  byLanguage: Record<string, EvalGroup>;
  byCategory: Record<string, EvalGroup>;
  /** Plain text under `none`. */
  byObfuscation: Record<string, EvalGroup>;
  /** Detected attacks that the rule of their own family reported. */
  attributed: Rate;
  misses: EvalOutcome[];
  falsePositives: EvalOutcome[];
  /** Prompts on which a rule failed (timeout, error): screening failed closed or open on them. */
  errors: EvalOutcome[];
}

const rateOf = (hits: number, total: number): Rate => ({ hits, total, rate: total === 0 ? null : hits / total });

function groupOf(outcomes: EvalOutcome[]): EvalGroup {
  const attacks = outcomes.filter((o) => o.prompt.label === 'attack');
  const benign = outcomes.filter((o) => o.prompt.label === 'benign');
  return {
    detection: rateOf(attacks.filter((o) => o.flagged).length, attacks.length),
    falsePositives: rateOf(benign.filter((o) => o.flagged).length, benign.length),
  };
}

function groupBy(outcomes: EvalOutcome[], key: (o: EvalOutcome) => string): Record<string, EvalGroup> {
  const groups = new Map<string, EvalOutcome[]>();
  for (const o of outcomes) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, groupOf(groups.get(k)!)]));
}

export const isRuleError = (ruleId: string | null): boolean => ruleId !== null && ruleId.startsWith('pattern_error:');

export function scoreEval(outcomes: EvalOutcome[]): EvalReport {
  const detected = outcomes.filter((o) => o.prompt.label === 'attack' && o.flagged);
  const ownRule = detected.filter((o) => o.rule_id === RULE_FOR_CATEGORY[o.prompt.category as keyof typeof RULE_FOR_CATEGORY]);
  return {
    overall: groupOf(outcomes),
    byLanguage: groupBy(outcomes, (o) => o.prompt.language),
    byCategory: groupBy(outcomes, (o) => o.prompt.category),
    byObfuscation: groupBy(outcomes, (o) => o.prompt.obfuscation ?? 'none'),
    attributed: rateOf(ownRule.length, detected.length),
    misses: outcomes.filter((o) => o.prompt.label === 'attack' && !o.flagged),
    falsePositives: outcomes.filter((o) => o.prompt.label === 'benign' && o.flagged),
    errors: outcomes.filter((o) => isRuleError(o.rule_id)),
  };
}

/** Screens each prompt in turn with `screen` (the facade's tryScreen, say). */
export async function screenEvalSet(
  prompts: EvalPrompt[],
  screen: (text: string) => Promise<{ blocked: boolean; rule_id: string | null }>,
): Promise<EvalOutcome[]> {
  const outcomes: EvalOutcome[] = [];
  for (const prompt of prompts) {
    const { blocked, rule_id } = await screen(prompt.text);
    outcomes.push({ prompt, flagged: blocked, rule_id });
  }
  return outcomes;
}
