export interface FieldProblem {
  path: string;
  message: string;
}

/** An engine error with the code and HTTP status the adapters answer with. */
export class EvidenceError extends Error {
  constructor(
    readonly code: 'validation_error' | 'unknown_profile' | 'unknown_review' | 'llm_unavailable' | 'invalid_config',
    readonly status: number,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'EvidenceError';
  }

  static validation(problems: FieldProblem[]): EvidenceError {
    return new EvidenceError('validation_error', 422, problems.map((p) => `${p.message}`).join(' '), problems);
  }

  static config(message: string): EvidenceError {
    return new EvidenceError('invalid_config', 500, message);
  }
}
