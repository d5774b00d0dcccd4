import { ValidationFailedError } from './domain-error';

/**
 * What the caller is told for a Postgres data exception (SQLSTATE class 22): the value a client
 * sent did not fit the type or column it was meant for. Said without SQL, type names or the value.
 */
const MESSAGES: Record<string, string> = {
  '22003': 'holds a number outside the range its field accepts',
  '22P02': 'holds a value that is not valid for its field',
  '22021': 'holds a character that cannot be stored',
  '22001': 'holds a text longer than its field accepts',
  '22007': 'holds a date or time that is not valid',
  '22008': 'holds a date or time outside the supported range',
};
const DEFAULT_MESSAGE = 'holds a value its field cannot take';

/** The field a data exception is reported under: the database does not say which input it was. */
export const DATA_EXCEPTION_FIELD = 'request';

interface PgErrorFields {
  code?: unknown;
  severity?: unknown;
  driverError?: unknown;
}

/**
 * The SQLSTATE of a Postgres error (pg's DatabaseError, or TypeORM's QueryFailedError around it),
 * told apart from other errors with a `code` by the severity every server error carries.
 */
export function postgresSqlState(exception: unknown): string | undefined {
  for (const candidate of [exception, (exception as PgErrorFields | null)?.driverError]) {
    if (!(candidate instanceof Error)) continue;
    const { code, severity } = candidate as PgErrorFields;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string') return code;
  }
  return undefined;
}

/** A data exception raised by client input, answered as each service answers invalid input. */
export class ClientDataError extends ValidationFailedError {
  constructor(readonly sqlState: string) {
    super([{ field: DATA_EXCEPTION_FIELD, message: `The request ${MESSAGES[sqlState] ?? DEFAULT_MESSAGE}.` }]);
  }
}

/**
 * The validation error a Postgres data exception (class 22: out-of-range number, malformed
 * integer or uuid text, a character the encoding cannot hold, text too long, a bad date) stands
 * for; undefined for anything else. It is a backstop: DTOs and pipes refuse such values first, so
 * one reaching the database is logged at warn to be closed where it came in. Constraint
 * violations (class 23) and every other error keep the handling they have.
 */
export function clientDataError(exception: unknown, logger?: { warn(message: string): unknown }): ClientDataError | undefined {
  const state = postgresSqlState(exception);
  if (!state?.startsWith('22')) return undefined;
  logger?.warn(`client input reached Postgres as a data exception (SQLSTATE ${state}): ${(exception as Error).message}`);
  return new ClientDataError(state);
}
