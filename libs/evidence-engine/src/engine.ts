import { LlmProvider, LlmReply, LlmRequest, LlmUnavailableError } from '@platform/llm';
import { BudgetMeter } from './budget';
import { canonicalJson, sha256Hex } from './canonical';
import { evidenceStrength, keywordCheck } from './checks';
import { EvidenceError } from './errors';
import { labelSource } from './labeling';
import { buildProfiles, Profile, ProfileOverrides, profileSummary } from './profiles';
import { parseReviewRequest } from './request';
import { buildTiers, Tier, TierOverrides } from './tiers';
import { ASSERTIVENESS, CHECK_KINDS, Finding, KeywordCheckKind, ReviewRequest, ReviewResult, severityOf, Verdict, VERDICTS } from './types';

export interface EngineConfig {
  tiers?: TierOverrides;
  /** domain (or `*.domain`) → tier key, tried in insertion order. */
  tier_hints?: Record<string, string>;
  profiles?: ProfileOverrides;
  llm?: { enabled: boolean };
}

/** The model, behind a port; the default install has none and spends no tokens. */
export type LlmPort = Pick<LlmProvider, 'complete'>;

export interface ReviewLogEntry {
  artifact: ReviewRequest['artifact'];
  options: ReviewRequest['options'];
  result: ReviewResult;
}

export interface ReviewLogPort {
  append(entry: ReviewLogEntry): Promise<void>;
}

export interface EnginePorts {
  /** Wall-clock time for `reviewed_at` (tests and replays fix it). */
  now?: () => Date;
  /** Monotonic milliseconds for the budget's wall-time cap. */
  monotonicMs?: () => number;
  llm?: LlmPort;
  log?: ReviewLogPort;
}

const HEAVY_MAX_TOKENS = 1000;
const round4 = (n: number) => Math.round(n * 10000) / 10000;

function maxVerdict(verdicts: Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((max, v) => (severityOf(v) > severityOf(max) ? v : max), 'keep');
}

/** Fixed key order for a finding (part of the stable output). */
function finding(f: Finding): Finding {
  return {
    check_kind: f.check_kind,
    claim_id: f.claim_id,
    verdict: f.verdict,
    reason: f.reason,
    suggested_rewrite: f.suggested_rewrite,
    confidence: f.confidence,
    cost_class: f.cost_class,
    evidence: f.evidence,
  };
}

export class ReviewEngine {
  readonly tiers: Map<string, Tier>;
  readonly profiles: Map<string, Profile>;
  private readonly hints: Array<[string, string]>;
  private readonly llmEnabled: boolean;

  constructor(
    config: EngineConfig = {},
    private readonly ports: EnginePorts = {},
  ) {
    this.tiers = buildTiers(config.tiers);
    this.hints = Object.entries(config.tier_hints ?? {});
    for (const [domain, tier] of this.hints) {
      if (!this.tiers.has(tier)) throw EvidenceError.config(`tier_hints.${domain}: tier "${tier}" is not configured`);
    }
    this.profiles = buildProfiles(this.tiers, config.profiles);
    this.llmEnabled = config.llm?.enabled === true;
    if (this.llmEnabled && !ports.llm) throw EvidenceError.config('llm.enabled is true but no LLM provider is bound');
  }

  /** Reviews a raw request (validated here); the same request and config give the same bytes. */
  async review(input: unknown): Promise<ReviewResult> {
    return this.reviewRequest(parseReviewRequest(input));
  }

  /** Reviews an already validated request (adapters that parse first to keep the request). */
  async reviewRequest(request: ReviewRequest): Promise<ReviewResult> {
    const { artifact, options } = request;
    const profile = this.profiles.get(options.profile_key);
    if (!profile) throw new EvidenceError('unknown_profile', 404, `Unknown evidence risk profile [${options.profile_key}].`);
    const monotonic = this.ports.monotonicMs ?? (() => performance.now());
    const meter = new BudgetMeter(options.budget, monotonic);

    const sourceTiers = new Map<string, string>();
    for (const source of artifact.sources) sourceTiers.set(source.id, labelSource(source, this.tiers, this.hints));

    const enabled = new Set(profile.enabled_checks);
    const strength = evidenceStrength(artifact.claims, sourceTiers, this.tiers, profile, enabled.has('evidence_strength'));
    const cheap: Finding[] = [...strength.findings];
    for (const kind of CHECK_KINDS) {
      if (kind !== 'evidence_strength' && enabled.has(kind)) cheap.push(...keywordCheck(kind as KeywordCheckKind, artifact.claims, profile));
    }

    const heavy: Finding[] = [];
    if (cheap.length > 0 && this.llmEnabled) heavy.push(...(await this.heavySweep(request, profile, meter)));
    if (options.label_via_llm && this.llmEnabled) await this.refineTiers(request, meter, sourceTiers);

    const findings = [...cheap, ...heavy].map(finding);
    const claimVerdicts: Record<string, Verdict> = {};
    for (const claim of artifact.claims) {
      const verdict = maxVerdict(findings.filter((f) => f.claim_id === claim.id).map((f) => f.verdict));
      if (verdict !== 'keep') claimVerdicts[claim.id] = verdict;
    }
    const overall = maxVerdict(findings.map((f) => f.verdict));
    const reviewedAt = options.reviewed_at ?? (this.ports.now ?? (() => new Date()))().toISOString();
    const result: ReviewResult = {
      review_id: this.reviewId(request, profile),
      artifact_id: artifact.artifact_id,
      profile_key: profile.key,
      verdict: overall,
      findings,
      claim_verdicts: claimVerdicts,
      claim_gaps: strength.gaps,
      source_tiers: Object.fromEntries(sourceTiers),
      risk_score: round4(severityOf(overall) / 3),
      budget: meter.snapshot(),
      reviewed_at: reviewedAt,
      metadata: { dry_run: options.dry_run, heavy_checks_run: heavy.some((f) => f.cost_class === 'heavy'), llm_enabled: this.llmEnabled },
    };
    if (!options.dry_run && this.ports.log) await this.ports.log.append({ artifact, options, result });
    return result;
  }

  /** rev_ + 32 hex of sha256(canonical request + profile); time and dry-run do not change it. */
  private reviewId(request: ReviewRequest, profile: Profile): string {
    const { reviewed_at: _r, dry_run: _d, ...options } = request.options;
    return `rev_${sha256Hex(canonicalJson({ artifact: request.artifact, options, profile })).slice(0, 32)}`;
  }

  private async callLlm(request: LlmRequest): Promise<LlmReply> {
    try {
      return await this.ports.llm!.complete(request);
    } catch (e) {
      if (e instanceof LlmUnavailableError) throw new EvidenceError('llm_unavailable', 503, `The language model is unavailable: ${e.message}`);
      throw e;
    }
  }

  /** One LLM call over claims that already failed a cheap check; its items are validated, bad ones dropped. */
  private async heavySweep(request: ReviewRequest, profile: Profile, meter: BudgetMeter): Promise<Finding[]> {
    if (!meter.tryConsumeLlmCall(HEAVY_MAX_TOKENS)) {
      return [
        {
          check_kind: 'evidence_strength',
          claim_id: null,
          verdict: 'flag_for_human_review',
          reason: 'Heavy check [evidence_strength] skipped because review budget is exhausted.',
          suggested_rewrite: null,
          confidence: 1,
          cost_class: 'skipped_over_budget',
          evidence: {},
        },
      ];
    }
    const reply = await this.callLlm({
      purpose: 'risk_check.evidence_strength',
      prompt: 'Review claims that already failed cheap evidence checks and return conservative risk findings.',
      payload: { artifact: request.artifact, profile: profileSummary(profile) },
      max_tokens: HEAVY_MAX_TOKENS,
    });
    meter.recordTokens(reply.tokens_used);
    const items = (reply.data as { findings?: unknown })?.findings;
    if (!Array.isArray(items)) return [];
    const claimIds = new Set(request.artifact.claims.map((c) => c.id));
    const out: Finding[] = [];
    for (const item of items) {
      if (typeof item !== 'object' || item === null) continue;
      const i = item as Record<string, unknown>;
      if (typeof i['reason'] !== 'string' || i['reason'].trim() === '') continue;
      const claimId = i['claim_id'] ?? null;
      if (claimId !== null && (typeof claimId !== 'string' || !claimIds.has(claimId))) continue;
      const verdict = i['verdict'] ?? 'flag_for_human_review';
      if (!(VERDICTS as readonly unknown[]).includes(verdict)) continue;
      const confidence = typeof i['confidence'] === 'number' && i['confidence'] >= 0 && i['confidence'] <= 1 ? i['confidence'] : 0.75;
      out.push({
        check_kind: 'evidence_strength',
        claim_id: claimId as string | null,
        verdict: verdict as Verdict,
        reason: i['reason'],
        suggested_rewrite: typeof i['suggested_rewrite'] === 'string' ? i['suggested_rewrite'] : null,
        confidence,
        cost_class: 'heavy',
        evidence: {},
      });
    }
    return out;
  }

  /** Optional LLM relabelling of ambiguous sources; unknown tiers and unknown source ids are dropped. */
  private async refineTiers(request: ReviewRequest, meter: BudgetMeter, sourceTiers: Map<string, string>): Promise<void> {
    if (!meter.tryConsumeLlmCall(HEAVY_MAX_TOKENS)) return;
    const reply = await this.callLlm({
      purpose: 'tier_refinement',
      prompt: 'Refine source evidence tiers only when the cheap label is ambiguous.',
      payload: { sources: request.artifact.sources, tiers: [...this.tiers.keys()] },
      max_tokens: HEAVY_MAX_TOKENS,
    });
    meter.recordTokens(reply.tokens_used);
    const refined = (reply.data as { source_tiers?: unknown })?.source_tiers;
    if (typeof refined !== 'object' || refined === null) return;
    for (const [id, tier] of Object.entries(refined)) {
      if (sourceTiers.has(id) && typeof tier === 'string' && this.tiers.has(tier)) sourceTiers.set(id, tier);
    }
  }

  labelTier(source: unknown): { tier: string } {
    const s = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
    if (typeof s['id'] !== 'string' || s['id'].trim() === '') throw EvidenceError.validation([{ path: 'id', message: 'Expected non-empty string at [id].' }]);
    const text = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : null);
    return {
      tier: labelSource(
        { url: text('url'), title: text('title'), snippet: text('snippet'), declared_tier: text('declared_tier') ?? text('declaredTier'), metadata: (s['metadata'] as Record<string, unknown>) ?? {} },
        this.tiers,
        this.hints,
      ),
    };
  }

  listProfiles() {
    return { profiles: Object.fromEntries([...this.profiles.values()].map((p) => [p.key, profileSummary(p)])) };
  }

  getProfile(key: string) {
    const p = this.profiles.get(key);
    if (!p) throw new EvidenceError('unknown_profile', 404, `Unknown evidence risk profile [${key}].`);
    return { profile: { ...profileSummary(p), checks: p.checks } };
  }

  taxonomy() {
    return {
      tiers: Object.fromEntries([...this.tiers.values()].map((t) => [t.key, t])),
      risk_checks: [...CHECK_KINDS],
      risk_verdicts: VERDICTS.map((key) => ({ key, severity: severityOf(key) })),
      claim_assertiveness: [...ASSERTIVENESS],
    };
  }
}

export function createReviewEngine(config?: EngineConfig, ports?: EnginePorts): ReviewEngine {
  return new ReviewEngine(config, ports);
}
