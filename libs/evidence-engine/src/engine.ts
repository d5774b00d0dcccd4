import { NoneLlmProvider } from '@platform/llm';
import { BudgetMeter, effectiveBudget } from './budget';
import { EngineConfig, resolveEngineConfig, ResolvedEngineConfig } from './config';
import { EvidenceError } from './errors';
import { evidenceStrength } from './evidence-strength';
import { keywordChecks } from './keyword-checks';
import { labelSource, TierLabel } from './labeling';
import { refineSourceTiers, runHeavyCheck } from './llm-step';
import { orderedRecord } from './ordered-record';
import { Clock, EnginePorts, LlmPort, ReviewLogPort, systemClock } from './ports';
import { Profile, profileDetail, ProfileSummary, profileSummary } from './profiles';
import { claimVerdicts, riskScore, worstVerdict } from './reduction';
import { parseReviewRequest, parseSource } from './request';
import { reviewIdOf } from './review-id';
import { Taxonomy, taxonomyOf } from './taxonomy';
import { Tier, TierTable } from './tiers';
import { Finding, ReviewRequest, ReviewResult } from './types';

/** Fixed key order for a finding: part of the byte-stable output. */
const orderFinding = (f: Finding): Finding => ({
  check_kind: f.check_kind,
  claim_id: f.claim_id,
  verdict: f.verdict,
  reason: f.reason,
  suggested_rewrite: f.suggested_rewrite,
  confidence: f.confidence,
  cost_class: f.cost_class,
  evidence: f.evidence,
});

/**
 * The evidence risk review facade: validation, tier labelling, the deterministic checks, the
 * optional metered LLM step, reduction and scoring. Pure apart from its ports (clock, model,
 * log). The same request and config give the same bytes (given the same clock or `reviewed_at`).
 */
export class ReviewEngine {
  readonly config: ResolvedEngineConfig;
  private readonly clock: Clock;
  private readonly llm: LlmPort;
  private readonly log: ReviewLogPort | undefined;
  /** Each configured tier's object as results show it, made once: a large review names thousands of sources. */
  private readonly tierObjects = new Map<string, Readonly<Tier>>();

  /** Throws EvidenceConfigError, naming every bad key, for a config it cannot run with. */
  constructor(config: EngineConfig = {}, ports: EnginePorts = {}) {
    this.config = resolveEngineConfig(config);
    this.clock = ports.clock ?? systemClock;
    this.llm = ports.llm ?? new NoneLlmProvider();
    this.log = ports.log;
  }

  get tiers(): TierTable {
    return this.config.tiers;
  }

  get profiles(): ReadonlyMap<string, Profile> {
    return this.config.profiles;
  }

  /** Reviews an untrusted request (validated here; EvidenceValidationError lists every problem). */
  async review(input: unknown): Promise<ReviewResult> {
    return this.reviewRequest(parseReviewRequest(input));
  }

  /** Reviews a request already parsed with parseReviewRequest (adapters that keep the request). */
  async reviewRequest(request: ReviewRequest): Promise<ReviewResult> {
    const { artifact, options } = request;
    const profile = this.profile(options.profile_key ?? this.config.defaultProfile);
    const budget = effectiveBudget(this.config.budget, options.budget);
    const meter = new BudgetMeter(budget, () => this.clock.monotonicMs());
    const llmStep = { llm: this.llm, meter };

    const labels = new Map<string, TierLabel>();
    for (const source of artifact.sources) labels.set(source.id, labelSource(source, this.config));
    if (options.label_via_llm && this.config.llmEnabled) {
      await refineSourceTiers(llmStep, artifact, labels, this.config.tiers);
    }
    const sourceTiers = new Map([...labels].map(([id, label]) => [id, label.tier]));

    const enabled = new Set(profile.enabled_checks);
    const strength = evidenceStrength(
      artifact.claims,
      sourceTiers,
      this.config.tiers,
      profile,
      enabled.has('evidence_strength'),
    );
    const cheap = [...strength.findings, ...keywordChecks(artifact.claims, profile)];
    // The model is consulted only when enabled and useful: some cheap check already found a risk.
    const heavy =
      cheap.length > 0 && this.config.llmEnabled
        ? await runHeavyCheck(llmStep, artifact, profile, cheap)
        : { findings: [], ran: false };

    const findings = [...cheap, ...heavy.findings].map(orderFinding);
    const verdict = worstVerdict(findings);
    const result: ReviewResult = {
      review_id: reviewIdOf(
        {
          artifact,
          options: { profile_key: profile.key, budget, label_via_llm: options.label_via_llm },
        },
        profile,
      ),
      artifact_id: artifact.artifact_id,
      profile_key: profile.key,
      verdict,
      findings,
      claim_verdicts: claimVerdicts(artifact.claims, findings),
      claim_gaps: orderedRecord(strength.gaps),
      source_tiers: orderedRecord(
        [...sourceTiers].map(([id, key]) => [id, this.tierObject(key)] as const),
      ),
      risk_score: riskScore(verdict),
      budget: meter.usage(),
      reviewed_at: options.reviewed_at ?? this.clock.now().toISOString(),
      metadata: {
        dry_run: options.dry_run,
        heavy_checks_run: heavy.ran,
        llm_enabled: this.config.llmEnabled,
      },
    };
    if (!options.dry_run && this.log) await this.log.append({ artifact, options, result });
    return result;
  }

  /**
   * A source's tier as the taxonomy lists it (`{key, rank, label, builtin}`, reference §1.2), so a
   * result says how strong each source counted without a second lookup. Labelling only ever yields
   * configured keys (an unknown declared tier becomes `unverified`; refinement drops unknown ones).
   */
  private tierObject(key: string): Readonly<Tier> {
    const known = this.tierObjects.get(key);
    if (known) return known;
    const tier = this.config.tiers.get(key);
    if (!tier) throw new Error(`tier [${key}] is not configured`);
    // Shared by every result that names the tier, so frozen: no result can change another's.
    const made = Object.freeze({ key: tier.key, rank: tier.rank, label: tier.label, builtin: tier.builtin });
    this.tierObjects.set(key, made);
    return made;
  }

  /** The tier of one untrusted source (`{id, url?, title?, snippet?, declared_tier?, metadata?}`). */
  labelTier(source: unknown): { tier: string } {
    return { tier: this.explainTier(source).tier };
  }

  /** labelTier plus the rule that decided it. */
  explainTier(source: unknown): TierLabel {
    return labelSource(parseSource(source), this.config);
  }

  /** Profiles by key, for GET /profiles. */
  listProfiles(): { profiles: Record<string, ProfileSummary> } {
    return {
      profiles: orderedRecord(
        [...this.config.profiles.values()].map((p) => [p.key, profileSummary(p)] as const),
      ),
    };
  }

  /** One profile with its check settings, for GET /profiles/{key}; unknown_profile (404) otherwise. */
  getProfile(key: string): { profile: ReturnType<typeof profileDetail> } {
    return { profile: profileDetail(this.profile(key)) };
  }

  /** Tiers (as configured), checks, verdicts and assertiveness levels, for GET /taxonomy. */
  taxonomy(): Taxonomy {
    return taxonomyOf(this.config.tiers);
  }

  private profile(key: string): Profile {
    const profile = this.config.profiles.get(key);
    if (!profile) throw EvidenceError.unknownProfile(key);
    return profile;
  }
}

export function createReviewEngine(config?: EngineConfig, ports?: EnginePorts): ReviewEngine {
  return new ReviewEngine(config, ports);
}
