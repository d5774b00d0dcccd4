/** One problem with an input: where (a dotted path, list indexes as numbers) and what. */
export interface FieldProblem {
  path: string;
  message: string;
}

export type EvidenceErrorCode =
  'validation_error' | 'unknown_profile' | 'unknown_review' | 'llm_unavailable' | 'invalid_config';

const MESSAGES_SHOWN = 10;

function summarise(prefix: string, problems: FieldProblem[]): string {
  const shown = problems.slice(0, MESSAGES_SHOWN).map((p) => p.message);
  const more = problems.length - shown.length;
  return `${prefix} ${shown.join(' ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** An engine error with the code and HTTP status adapters answer with, and per-field details. */
export class EvidenceError extends Error {
  constructor(
    readonly code: EvidenceErrorCode,
    readonly status: number,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'EvidenceError';
  }

  static validation(problems: FieldProblem[]): EvidenceValidationError {
    return new EvidenceValidationError(problems);
  }

  static config(problems: FieldProblem[]): EvidenceConfigError {
    return new EvidenceConfigError(problems);
  }

  static unknownProfile(key: string): EvidenceError {
    return new EvidenceError('unknown_profile', 404, `Unknown evidence risk profile [${key}].`);
  }
}

/** The request is malformed; `details` lists every problem found, not only the first. */
export class EvidenceValidationError extends EvidenceError {
  constructor(problems: FieldProblem[]) {
    super('validation_error', 422, summarise('Invalid review request:', problems), problems);
    this.name = 'EvidenceValidationError';
  }
}

/** The engine config is unusable; thrown at construction so a host never starts with it. */
export class EvidenceConfigError extends EvidenceError {
  constructor(problems: FieldProblem[]) {
    super('invalid_config', 500, summarise('Invalid evidence engine config:', problems), problems);
    this.name = 'EvidenceConfigError';
  }
}
