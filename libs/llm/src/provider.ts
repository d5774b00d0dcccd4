/** One request to a language model: instructions plus a JSON payload, answered with one JSON object. */
export interface LlmRequest {
  /** What the call is for (e.g. `risk_check.evidence_strength`), so replies can be traced. */
  purpose: string;
  prompt: string;
  payload: unknown;
  /** Upper bound on the reply's tokens. */
  max_tokens: number;
  /** Aborts the call, e.g. when the caller's wall-time budget runs out. */
  signal?: AbortSignal;
}

export interface LlmReply {
  /** The model's raw text. */
  text: string;
  /** The text parsed as JSON, or null when it is not JSON. Callers must validate it. */
  data: unknown;
  /** Tokens the call cost (prompt and reply); never negative. */
  tokens_used: number;
}

/** The port every model binding implements. */
export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmReply>;
}

/** Why a call failed; callers decide whether that is an outage or their own deadline. */
export type LlmFailureKind = 'network' | 'timeout' | 'aborted' | 'http_status' | 'bad_reply';

/** The provider could not be reached or gave no usable reply (adapters answer 503). */
export class LlmUnavailableError extends Error {
  constructor(
    message: string,
    readonly kind: LlmFailureKind,
  ) {
    super(message);
    this.name = 'LlmUnavailableError';
  }
}

/** A provider configuration that cannot work (checked when the provider is built, at start). */
export class LlmConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmConfigError';
  }
}
