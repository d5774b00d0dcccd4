import { EvidenceError, FieldProblem } from '../errors';
import { isPlainObject, wholeNumber } from '../json';
import {
  Artifact,
  Assertiveness,
  BudgetCaps,
  Claim,
  JsonObject,
  ReviewOptions,
  ReviewRequest,
  Source,
} from '../types';
import { validateAgainst } from './dto-problems';
import { unstorableValues } from './well-formed-input';
import {
  ArtifactDto,
  BudgetCapsDto,
  ClaimDto,
  ReviewOptionsDto,
  ReviewRequestDto,
  SourceDto,
} from './review-request.dto';

const BUDGET_KEYS: ReadonlyArray<keyof BudgetCaps> = [
  'max_llm_calls',
  'max_tokens',
  'max_heavy_checks',
  'max_wall_seconds',
];

const NOT_AN_OBJECT: FieldProblem = {
  path: '',
  message: 'Expected a JSON object at the top level.',
};

/** `""` and null both mean "not given". */
const textOrNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value === '' ? null : value;

const claimOf = (c: ClaimDto): Claim => ({
  id: c.id,
  text: c.text,
  assertiveness: (c.assertiveness || 'likely') as Assertiveness,
  source_ids: [...(c.source_ids ?? [])],
  metadata: c.metadata ?? {},
});

const sourceOf = (s: SourceDto): Source => ({
  id: s.id,
  url: textOrNull(s.url),
  title: textOrNull(s.title),
  snippet: textOrNull(s.snippet),
  declared_tier: textOrNull(s.declared_tier !== undefined ? s.declared_tier : s.declaredTier),
  metadata: s.metadata ?? {},
});

const artifactOf = (a: ArtifactDto): Artifact => ({
  artifact_id: a.artifact_id,
  answer_text: a.answer_text,
  question: textOrNull(a.question),
  tenant_id: textOrNull(a.tenant_id),
  claims: (a.claims ?? []).map(claimOf),
  sources: (a.sources ?? []).map(sourceOf),
  metadata: a.metadata ?? {},
});

/** Only the caps the client set, in a fixed key order. */
function budgetOf(b: BudgetCapsDto | null | undefined): Partial<BudgetCaps> {
  const budget: Partial<BudgetCaps> = {};
  for (const key of BUDGET_KEYS) if (b?.[key] !== undefined) budget[key] = wholeNumber(b[key])!;
  return budget;
}

const optionsOf = (o: ReviewOptionsDto | null | undefined): ReviewOptions => ({
  profile_key: o?.profile_key ?? null,
  budget: budgetOf(o?.budget),
  label_via_llm: o?.label_via_llm ?? false,
  dry_run: o?.dry_run ?? false,
  // Milliseconds in UTC, whatever precision was sent.
  reviewed_at: o?.reviewed_at ? new Date(o.reviewed_at).toISOString() : null,
});

/**
 * Values JSON.parse makes of valid bytes that no review may carry (a lone surrogate, a non-finite
 * number; well-formed-input.ts), refused before the DTO rules: the request is refused as a whole,
 * before any review or write, naming each such value.
 */
function refuseUnstorable(input: JsonObject): void {
  const problems = unstorableValues(input);
  if (problems.length > 0) throw EvidenceError.validation(problems);
}

/**
 * Turns an untrusted request into a typed one, or throws EvidenceValidationError listing every
 * problem with its field path: the request is validated against ReviewRequestDto, then defaults
 * are filled in. Accepts an envelope `{artifact, options}` or a flat artifact with `options`
 * beside it; paths follow the shape the client sent. Unknown fields are dropped.
 */
export function parseReviewRequest(input: unknown): ReviewRequest {
  if (!isPlainObject(input)) throw EvidenceError.validation([NOT_AN_OBJECT]);
  refuseUnstorable(input);
  const flat = input['artifact'] === undefined;
  const { value, problems } = flat
    ? validateAgainst(
        ReviewRequestDto,
        { artifact: input, options: input['options'] },
        { artifact: '' },
      )
    : validateAgainst(ReviewRequestDto, input);
  if (problems.length > 0) throw EvidenceError.validation(problems);
  return { artifact: artifactOf(value.artifact), options: optionsOf(value.options) };
}

/** One untrusted source (`{id, url?, title?, snippet?, declared_tier?, metadata?}`), validated as SourceDto. */
export function parseSource(input: unknown): Source {
  if (!isPlainObject(input)) throw EvidenceError.validation([NOT_AN_OBJECT]);
  refuseUnstorable(input);
  const { value, problems } = validateAgainst(SourceDto, input);
  if (problems.length > 0) throw EvidenceError.validation(problems);
  return sourceOf(value);
}
