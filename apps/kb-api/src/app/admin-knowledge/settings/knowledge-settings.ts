/** The per-tenant settings kinds this module stores, with their defaults when a tenant has none. */
export type SettingsKind = 'analysis' | 'autowiki' | 'evidence_tiers';

export interface AnalysisSettings {
  /** Answers below this confidence (0–100) count as content gaps. */
  low_confidence_threshold: number;
  /** A document not re-indexed for this many days is reported stale by the KB health check. */
  stale_after_days: number;
  /** A pending ingest older than this is reported stuck. */
  stuck_ingest_minutes: number;
  /** How many top terms a coverage analysis keeps. */
  top_terms: number;
}

export interface AutowikiSettings {
  /** When false, wiki-build refuses to run. */
  enabled: boolean;
  /** A concept must appear in at least this many documents. */
  min_document_frequency: number;
  /** A term in more than this percentage of the documents is vocabulary, not a concept. */
  max_document_share: number;
  max_concepts: number;
  include_headings: boolean;
  include_terms: boolean;
  /** Lower-case words or headings never turned into concepts. */
  exclude_terms: string[];
}

export interface EvidenceTier {
  source_type?: string;
  path_prefix?: string;
  rank: number;
  label?: string;
}

export interface EvidenceTiers {
  /** Rank of a document no tier matches. */
  default_rank: number;
  tiers: EvidenceTier[];
}

export const ANALYSIS_DEFAULTS: AnalysisSettings = { low_confidence_threshold: 40, stale_after_days: 180, stuck_ingest_minutes: 30, top_terms: 20 };

export const AUTOWIKI_DEFAULTS: AutowikiSettings = {
  enabled: true,
  min_document_frequency: 2,
  max_document_share: 50,
  max_concepts: 200,
  include_headings: true,
  include_terms: true,
  exclude_terms: [],
};

export const EVIDENCE_TIER_DEFAULTS: EvidenceTiers = { default_rank: 50, tiers: [] };

export interface SettingsMap {
  analysis: AnalysisSettings;
  autowiki: AutowikiSettings;
  evidence_tiers: EvidenceTiers;
}

export const SETTINGS_DEFAULTS: SettingsMap = { analysis: ANALYSIS_DEFAULTS, autowiki: AUTOWIKI_DEFAULTS, evidence_tiers: EVIDENCE_TIER_DEFAULTS };
