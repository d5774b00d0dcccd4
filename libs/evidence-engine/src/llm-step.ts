import { estimateTokens, LlmReply, LlmRequest, LlmUnavailableError } from '@platform/llm';
import { BudgetMeter } from './budget';
import { EvidenceError } from './errors';
import { TierLabel } from './labeling';
import { parseModelFindings, parseModelTiers } from './model-output';
import { LlmPort } from './ports';
import { Profile, profileSummary } from './profiles';
import { TierTable } from './tiers';
import { Artifact, BudgetCaps, Finding, VERDICTS } from './types';

/** Reply-token limit of each call. */
export const LLM_MAX_TOKENS = 1000;

const RISK_PROMPT = [
  'Review claims that already failed cheap evidence checks and return conservative risk findings.',
  `Reply as {"findings":[{"claim_id":string|null,"verdict":${VERDICTS.map((v) => `"${v}"`).join('|')},`,
  '"reason":string,"confidence":number from 0 to 1,"suggested_rewrite":string|null}]}.',
].join('\n');

const TIER_PROMPT = [
  'Refine source evidence tiers only when the cheap label is ambiguous.',
  'Reply as {"source_tiers":{"<source id>":"<tier key>"}}, listing only sources whose tier should change.',
].join('\n');

export interface LlmStepContext {
  llm: LlmPort;
  meter: BudgetMeter;
}

type MeteredOutcome = { reply: LlmReply } | { refused: keyof BudgetCaps };

/**
 * One model call through the budget: refused when the meter says no; cut off when the review's
 * wall time runs out mid-call (which counts as a refusal, not an outage); otherwise its tokens are
 * recorded. A provider failure is an outage the adapters answer with 503.
 */
async function meteredCall(
  ctx: LlmStepContext,
  request: Omit<LlmRequest, 'signal'>,
): Promise<MeteredOutcome> {
  const estimate =
    estimateTokens(request.prompt, JSON.stringify(request.payload)) + request.max_tokens;
  const decision = ctx.meter.tryConsumeLlmCall(estimate);
  if (!decision.granted) return { refused: decision.cap };
  const deadline = AbortSignal.timeout(Math.max(1, Math.ceil(ctx.meter.remainingWallMs())));
  try {
    const reply = await ctx.llm.complete({ ...request, signal: deadline });
    ctx.meter.recordTokens(reply.tokens_used);
    return { reply };
  } catch (e) {
    if (deadline.aborted) return { refused: 'max_wall_seconds' };
    if (e instanceof LlmUnavailableError) {
      throw new EvidenceError(
        'llm_unavailable',
        503,
        `The language model is unavailable: ${e.message}`,
      );
    }
    throw e;
  }
}

export function skippedOverBudget(cap: keyof BudgetCaps): Finding {
  return {
    check_kind: 'evidence_strength',
    claim_id: null,
    verdict: 'flag_for_human_review',
    reason: 'Heavy check [evidence_strength] skipped because review budget is exhausted.',
    suggested_rewrite: null,
    confidence: 1,
    cost_class: 'skipped_over_budget',
    evidence: { exhausted_cap: cap },
  };
}

export interface HeavyCheckOutcome {
  findings: Finding[];
  /** The model was asked and answered. */
  ran: boolean;
}

/**
 * The heavy risk check: one call with the artifact (including the answer text, which only the
 * model sees), the profile and the cheap findings it is asked to look behind.
 */
export async function runHeavyCheck(
  ctx: LlmStepContext,
  artifact: Artifact,
  profile: Profile,
  cheapFindings: readonly Finding[],
): Promise<HeavyCheckOutcome> {
  const outcome = await meteredCall(ctx, {
    purpose: 'risk_check.evidence_strength',
    prompt: RISK_PROMPT,
    payload: {
      artifact,
      profile: profileSummary(profile),
      cheap_findings: cheapFindings.map((f) => ({
        check_kind: f.check_kind,
        claim_id: f.claim_id,
        verdict: f.verdict,
        reason: f.reason,
      })),
    },
    max_tokens: LLM_MAX_TOKENS,
  });
  if ('refused' in outcome) return { findings: [skippedOverBudget(outcome.refused)], ran: false };
  const claimIds = new Set(artifact.claims.map((c) => c.id));
  return { findings: parseModelFindings(outcome.reply.data, claimIds), ran: true };
}

/**
 * Asks the model about sources whose tier was guessed (no declared tier) and applies its valid
 * suggestions in place. Declared tiers are the host's statement and stay. Runs before the checks,
 * so a refined tier changes the evidence-strength findings. Skipped quietly when over budget: the
 * cheap labels stand.
 */
export async function refineSourceTiers(
  ctx: LlmStepContext,
  artifact: Artifact,
  labels: Map<string, TierLabel>,
  tiers: TierTable,
): Promise<void> {
  // A repeated source id is one source: its last definition, as in labelling.
  const latest = new Map(artifact.sources.map((s) => [s.id, s]));
  const guessed = [...latest.values()].filter((s) => labels.get(s.id)?.rule !== 'declared_tier');
  if (guessed.length === 0) return;
  const outcome = await meteredCall(ctx, {
    purpose: 'tier_refinement',
    prompt: TIER_PROMPT,
    payload: {
      sources: guessed.map((s) => ({
        id: s.id,
        url: s.url,
        title: s.title,
        snippet: s.snippet,
        tier: labels.get(s.id)!.tier,
      })),
      tiers: [...tiers.values()].map((t) => ({ key: t.key, rank: t.rank, label: t.label })),
    },
    max_tokens: LLM_MAX_TOKENS,
  });
  if ('refused' in outcome) return;
  const asked = new Set(guessed.map((s) => s.id));
  for (const [id, tier] of parseModelTiers(outcome.reply.data, asked, tiers)) {
    labels.set(id, { tier, rule: 'model' });
  }
}
