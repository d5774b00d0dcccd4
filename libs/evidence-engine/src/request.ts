import { EvidenceError } from './errors';
import { isPlainObject, pathOf, ProblemList, wholeNumber } from './json';
import {
  Artifact,
  ASSERTIVENESS,
  Assertiveness,
  BudgetCaps,
  Claim,
  JsonObject,
  ReviewOptions,
  ReviewRequest,
  Source,
} from './types';

const BUDGET_KEYS: ReadonlyArray<keyof BudgetCaps> = [
  'max_llm_calls',
  'max_tokens',
  'max_heavy_checks',
  'max_wall_seconds',
];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/** Reads fields of one untrusted object, recording a problem (with its path) for each bad one. */
class FieldReader {
  constructor(
    private readonly obj: JsonObject,
    private readonly base: string,
    private readonly problems: ProblemList,
  ) {}

  at(key: string | number): string {
    return pathOf(this.base, key);
  }

  requiredString(key: string): string {
    const v = this.obj[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
    this.problems.add(this.at(key), `Expected non-empty string at [${this.at(key)}].`);
    return '';
  }

  /** A string or null; `""` counts as null. */
  optionalString(key: string): string | null {
    const path = this.at(key);
    const v = this.obj[key];
    if (v === undefined || v === null || v === '') return null;
    if (typeof v === 'string') return v;
    this.problems.add(path, `Expected string or null at [${path}].`);
    return null;
  }

  metadata(): JsonObject {
    const v = this.obj['metadata'];
    if (v === undefined || v === null) return {};
    if (isPlainObject(v)) return v;
    this.problems.add(
      this.at('metadata'),
      `Expected an object with string keys at [${this.at('metadata')}].`,
    );
    return {};
  }

  /** A list of objects parsed in order (default empty); null, a map or a non-object item is refused. */
  objects<T>(key: string, parse: (item: JsonObject, path: string) => T): T[] {
    const v = this.obj[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      this.problems.add(this.at(key), `Expected a list of objects at [${this.at(key)}].`);
      return [];
    }
    const out: T[] = [];
    v.forEach((item, i) => {
      const path = pathOf(this.at(key), i);
      if (isPlainObject(item)) out.push(parse(item, path));
      else this.problems.add(path, `Expected an object at [${path}].`);
    });
    return out;
  }
}

function parseClaim(raw: JsonObject, path: string, problems: ProblemList): Claim {
  const r = new FieldReader(raw, path, problems);
  const id = r.requiredString('id');
  const text = r.requiredString('text');
  let assertiveness: Assertiveness = 'likely';
  const a = raw['assertiveness'];
  if (a !== undefined && a !== null && a !== '') {
    if ((ASSERTIVENESS as readonly unknown[]).includes(a)) assertiveness = a as Assertiveness;
    else
      problems.add(
        r.at('assertiveness'),
        `Expected one of ${ASSERTIVENESS.join(', ')} at [${r.at('assertiveness')}].`,
      );
  }
  const sourceIds: string[] = [];
  const ids = raw['source_ids'];
  if (ids !== undefined && !Array.isArray(ids)) {
    problems.add(
      r.at('source_ids'),
      `Expected a list of non-empty strings at [${r.at('source_ids')}].`,
    );
  } else if (ids) {
    ids.forEach((id, i) => {
      const at = pathOf(r.at('source_ids'), i);
      if (typeof id === 'string' && id.trim() !== '') sourceIds.push(id);
      else problems.add(at, `Expected non-empty string at [${at}].`);
    });
  }
  return {
    id,
    text,
    assertiveness,
    source_ids: sourceIds,
    metadata: r.metadata(),
  };
}

/** One cited source; `declaredTier` is accepted for `declared_tier`. */
export function parseSource(raw: JsonObject, path: string, problems: ProblemList): Source {
  const r = new FieldReader(raw, path, problems);
  const declaredKey =
    raw['declared_tier'] === undefined && raw['declaredTier'] !== undefined
      ? 'declaredTier'
      : 'declared_tier';
  return {
    id: r.requiredString('id'),
    url: r.optionalString('url'),
    title: r.optionalString('title'),
    snippet: r.optionalString('snippet'),
    declared_tier: r.optionalString(declaredKey),
    metadata: r.metadata(),
  };
}

function parseArtifact(raw: JsonObject, base: string, problems: ProblemList): Artifact {
  const r = new FieldReader(raw, base, problems);
  return {
    artifact_id: r.requiredString('artifact_id'),
    answer_text: r.requiredString('answer_text'),
    question: r.optionalString('question'),
    tenant_id: r.optionalString('tenant_id'),
    claims: r.objects('claims', (item, path) => parseClaim(item, path, problems)),
    sources: r.objects('sources', (item, path) => parseSource(item, path, problems)),
    metadata: r.metadata(),
  };
}

function parseOptions(raw: unknown, problems: ProblemList): ReviewOptions {
  const options: ReviewOptions = {
    profile_key: null,
    budget: {},
    label_via_llm: false,
    dry_run: false,
    reviewed_at: null,
  };
  if (raw === undefined || raw === null) return options;
  if (!isPlainObject(raw)) {
    problems.add('options', 'Expected an object or null at [options].');
    return options;
  }
  const profileKey = raw['profile_key'];
  if (profileKey !== undefined && profileKey !== null) {
    if (typeof profileKey === 'string' && profileKey.trim() !== '')
      options.profile_key = profileKey;
    else problems.add('options.profile_key', 'Expected non-empty string at [options.profile_key].');
  }
  for (const key of ['label_via_llm', 'dry_run'] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v === 'boolean') options[key] = v;
    else problems.add(`options.${key}`, `Review option [${key}] must be a boolean.`);
  }
  const budget = raw['budget'];
  if (budget !== undefined && budget !== null && !isPlainObject(budget)) {
    problems.add('options.budget', 'Expected an object or null at [options.budget].');
  } else if (budget) {
    for (const key of BUDGET_KEYS) {
      if (budget[key] === undefined) continue;
      const n = wholeNumber(budget[key]);
      if (n === null)
        problems.add(
          `options.budget.${key}`,
          `Budget [${key}] must be a whole number, zero or greater.`,
        );
      else options.budget[key] = n;
    }
  }
  const reviewedAt = raw['reviewed_at'];
  if (reviewedAt !== undefined && reviewedAt !== null) {
    const ms =
      typeof reviewedAt === 'string' && ISO_UTC.test(reviewedAt) ? Date.parse(reviewedAt) : NaN;
    // Date.parse rolls impossible dates over (Feb 30 → Mar 2); a replay time must be exact.
    const exact =
      !Number.isNaN(ms) &&
      new Date(ms).toISOString().slice(0, 19) === String(reviewedAt).slice(0, 19);
    if (!exact) {
      problems.add(
        'options.reviewed_at',
        'Review option [reviewed_at] must be an ISO-8601 UTC instant such as 2026-01-31T12:00:00Z.',
      );
    } else options.reviewed_at = new Date(ms).toISOString();
  }
  return options;
}

/**
 * Turns an untrusted request into a typed one, or throws EvidenceValidationError listing every
 * problem with its field path. Accepts an envelope `{artifact, options}` or a flat artifact with
 * `options` beside it; paths follow the shape the client sent. Unknown fields are dropped.
 */
export function parseReviewRequest(input: unknown): ReviewRequest {
  const problems = new ProblemList();
  if (!isPlainObject(input))
    throw EvidenceError.validation([
      { path: '', message: 'Expected a JSON object at the top level.' },
    ]);
  const envelope = input['artifact'];
  if (envelope !== undefined && !isPlainObject(envelope))
    problems.add('artifact', 'Expected an object at [artifact].');
  const artifact =
    envelope === undefined
      ? parseArtifact(input, '', problems)
      : isPlainObject(envelope)
        ? parseArtifact(envelope, 'artifact', problems)
        : parseArtifact({}, 'artifact', new ProblemList()); // its one problem is already recorded
  const options = parseOptions(input['options'], problems);
  if (!problems.empty) throw EvidenceError.validation(problems.items);
  return { artifact, options };
}
