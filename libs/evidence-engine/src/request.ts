import { EvidenceError, FieldProblem } from './errors';
import { Artifact, ASSERTIVENESS, Assertiveness, BudgetCaps, Claim, ReviewRequest, Source } from './types';

export const DEFAULT_BUDGET: BudgetCaps = { max_llm_calls: 3, max_tokens: 6000, max_heavy_checks: 8, max_wall_seconds: 30 };

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Turns an untrusted request (envelope `{artifact, options}` or a flat artifact with `options`)
 * into a typed one, or throws a validation error that lists every problem with its field path.
 * Unknown fields are ignored.
 */
export function parseReviewRequest(input: unknown): ReviewRequest {
  const problems: FieldProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message: `${message} at [${path}].` });

  if (!isObject(input)) throw EvidenceError.validation([{ path: '', message: 'Expected a JSON object at [].' }]);
  const envelope = isObject(input['artifact']);
  const raw = (envelope ? input['artifact'] : input) as Raw;
  const base = envelope ? 'artifact.' : '';
  const rawOptions = input['options'];

  const str = (obj: Raw, key: string, path: string): string => {
    const v = obj[key];
    if (typeof v !== 'string' || v.trim() === '') {
      problem(path, 'Expected non-empty string');
      return '';
    }
    return v;
  };
  const optionalStr = (obj: Raw, key: string, path: string): string | null => {
    const v = obj[key];
    if (v === undefined || v === null || v === '') return null;
    if (typeof v !== 'string') {
      problem(path, 'Expected string or null');
      return null;
    }
    return v;
  };
  const metadata = (obj: Raw, path: string): Record<string, unknown> => {
    const v = obj['metadata'];
    if (v === undefined || v === null) return {};
    if (!isObject(v)) {
      problem(path, 'Expected an object with string keys');
      return {};
    }
    return v;
  };
  const list = (obj: Raw, key: string, path: string): Raw[] => {
    const v = obj[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      problem(path, 'Expected a list of objects');
      return [];
    }
    return v.filter((item, i) => {
      if (!isObject(item)) problem(`${path}.${i}`, 'Expected an object');
      return isObject(item);
    }) as Raw[];
  };

  const claims: Claim[] = list(raw, 'claims', `${base}claims`).map((c, i) => {
    const at = `${base}claims.${i}`;
    const rawAssert = c['assertiveness'];
    let assertiveness: Assertiveness = 'likely';
    if (rawAssert !== undefined && rawAssert !== null && rawAssert !== '') {
      if (typeof rawAssert === 'string' && (ASSERTIVENESS as readonly string[]).includes(rawAssert)) assertiveness = rawAssert as Assertiveness;
      else problem(`${at}.assertiveness`, `Expected one of ${ASSERTIVENESS.join(', ')}`);
    }
    let sourceIds: string[] = [];
    const ids = c['source_ids'];
    if (ids !== undefined) {
      if (!Array.isArray(ids)) problem(`${at}.source_ids`, 'Expected a list of non-empty strings');
      else {
        ids.forEach((id, j) => {
          if (typeof id !== 'string' || id.trim() === '') problem(`${at}.source_ids.${j}`, 'Expected non-empty string');
        });
        sourceIds = ids.filter((id): id is string => typeof id === 'string' && id.trim() !== '');
      }
    }
    return { id: str(c, 'id', `${at}.id`), text: str(c, 'text', `${at}.text`), assertiveness, source_ids: sourceIds, metadata: metadata(c, `${at}.metadata`) };
  });

  const sources: Source[] = list(raw, 'sources', `${base}sources`).map((s, i) => {
    const at = `${base}sources.${i}`;
    const declared = s['declared_tier'] !== undefined ? 'declared_tier' : 'declaredTier';
    return {
      id: str(s, 'id', `${at}.id`),
      url: optionalStr(s, 'url', `${at}.url`),
      title: optionalStr(s, 'title', `${at}.title`),
      snippet: optionalStr(s, 'snippet', `${at}.snippet`),
      declared_tier: optionalStr(s, declared, `${at}.${declared}`),
      metadata: metadata(s, `${at}.metadata`),
    };
  });

  const artifact: Artifact = {
    artifact_id: str(raw, 'artifact_id', `${base}artifact_id`),
    answer_text: str(raw, 'answer_text', `${base}answer_text`),
    question: optionalStr(raw, 'question', `${base}question`),
    tenant_id: optionalStr(raw, 'tenant_id', `${base}tenant_id`),
    claims,
    sources,
    metadata: metadata(raw, `${base}metadata`),
  };

  const options: Raw = rawOptions === undefined || rawOptions === null ? {} : isObject(rawOptions) ? rawOptions : (problem('options', 'Expected an object'), {});
  const profileKey = options['profile_key'] === undefined ? 'default' : str(options, 'profile_key', 'options.profile_key');
  const bool = (key: string): boolean => {
    const v = options[key];
    if (v === undefined) return false;
    if (typeof v !== 'boolean') problem(`options.${key}`, 'Review option must be a boolean');
    return v === true;
  };
  const budget = { ...DEFAULT_BUDGET };
  const rawBudget = options['budget'];
  if (rawBudget !== undefined && rawBudget !== null) {
    if (!isObject(rawBudget)) problem('options.budget', 'Expected an object or null');
    else {
      for (const key of Object.keys(DEFAULT_BUDGET) as Array<keyof BudgetCaps>) {
        const v = rawBudget[key];
        if (v === undefined) continue;
        const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) problem(`options.budget.${key}`, 'Budget must be an integer, zero or greater');
        else budget[key] = n;
      }
    }
  }
  let reviewedAt: string | null = null;
  if (options['reviewed_at'] !== undefined) {
    const v = options['reviewed_at'];
    if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(v) || Number.isNaN(Date.parse(v))) {
      problem('options.reviewed_at', 'Expected an ISO-8601 UTC instant');
    } else reviewedAt = new Date(v).toISOString();
  }
  const parsed: ReviewRequest = {
    artifact,
    options: { profile_key: profileKey, budget, label_via_llm: bool('label_via_llm'), dry_run: bool('dry_run'), reviewed_at: reviewedAt },
  };
  if (problems.length) throw EvidenceError.validation(problems);
  return parsed;
}
