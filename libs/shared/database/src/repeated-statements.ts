import { Client } from 'pg';

/**
 * Named (prepared) statements for the SQL a service sends again and again.
 *
 * node-postgres sends every parameterized query as an unnamed statement, so Postgres parses,
 * rewrites and plans it on every call: for the knowledge base's read-back of ranked chunks that
 * is about two thirds of the server's CPU per call. Once a statement text has been sent
 * `prepareAfter` times by this process, it gets a name; each pooled connection then parses it
 * once and Postgres may reuse a generic plan (its default `plan_cache_mode`, chosen per statement
 * against the custom plans' cost). The same idea as pgjdbc's `prepareThreshold` and Npgsql's
 * automatic preparation.
 *
 * Only plain data statements with parameters are named: the extended protocol already carries
 * them, and a statement text with parameters is one statement (a multi-statement script runs
 * through the simple protocol and is left alone). Statements answering `*` stay unnamed (below). Texts that embed varying values never repeat
 * often and stay unnamed; the number of names and of texts being counted are bounded, so a
 * stream of distinct texts costs a bounded amount of memory.
 *
 * Named statements live in the server session, as the tenant confinement does (tenant-row-security.ts):
 * a pooler in front of Postgres must run in session mode. `DATABASE_PREPARE_AFTER=0` turns them off.
 */
export class RepeatedStatements {
  /** Names handed out, at most this many per process (each connection may hold all of them). */
  static readonly MAX_NAMED = 500;
  /** Texts counted towards `prepareAfter`; the count starts over when this many are pending. */
  static readonly MAX_COUNTED = 2_000;
  /** Longer texts are never named (they are built with values inside, and would only take memory). */
  static readonly MAX_TEXT_LENGTH = 20_000;

  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  constructor(private readonly prepareAfter: number) {}

  /** The name to send `text` under, or undefined to send it unnamed. */
  nameFor(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined) return named;
    if (this.prepareAfter <= 0 || this.names.size >= RepeatedStatements.MAX_NAMED) return undefined;
    if (text.length > RepeatedStatements.MAX_TEXT_LENGTH || !DATA_STATEMENT.test(text) || STAR_COLUMNS.test(text)) return undefined;
    const seen = (this.counts.get(text) ?? 0) + 1;
    if (seen < this.prepareAfter) {
      if (!this.counts.has(text) && this.counts.size >= RepeatedStatements.MAX_COUNTED) this.counts.clear();
      this.counts.set(text, seen);
      return undefined;
    }
    this.counts.delete(text);
    // Unique per text within the process, and every connection of the pool belongs to this process.
    const name = `platform_stmt_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }

  /** How many statement texts have a name. */
  get size(): number {
    return this.names.size;
  }
}

/** SELECT, WITH, INSERT, UPDATE, DELETE or VALUES first: a statement Postgres can prepare. */
const DATA_STATEMENT = /^\s*(?:select|with|insert|update|delete|values)\b/i;
/**
 * `*` or `t.*` in a select list or RETURNING: the columns answered follow the table. A migration that adds a column
 * while the previous release still runs (expand, then contract) would make Postgres refuse such a named statement
 * ("cached plan must not change result type"), so these stay unnamed. Listed columns do not change when one is added.
 */
const STAR_COLUMNS = /(?:\bselect|\breturning|,)\s*(?:distinct\s+)?(?:(?:"[^"]*"|\w+)\.)?\*/i;

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];

/**
 * A pg Client class (the pool's `Client` option) whose connections send the statements
 * `statements` names as named statements.
 */
export function clientNaming(statements: RepeatedStatements): typeof Client {
  class NamingClient extends Client {
    override query(...args: QueryArgs): never {
      const [config, values, callback] = args;
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
        const name = statements.nameFor(config);
        if (name !== undefined) return (super.query as (c: unknown) => never)({ name, text: config, values });
      }
      return (super.query as (...a: QueryArgs) => never)(...args);
    }
  }
  return NamingClient;
}
