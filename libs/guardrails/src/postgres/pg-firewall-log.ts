import { FirewallListQuery, FirewallLog, FirewallRejection, StoredFirewallRejection } from '../ports/firewall-log.port';
import { KeysetPage } from '../ports/keyset-page';
import { storableText, storableValue } from '../shared/text';
import { keysetLimit, pageOf } from './keyset-sql';
import { likeContains, SqlRunner, WhereBuilder } from './tables';

interface FirewallRow extends Omit<StoredFirewallRejection, 'id'> {
  id: string;
}

const COLUMNS = 'id, tool_name, tool_description, principal_id, violations, enforced, occurred_at';
const toRejection = (r: FirewallRow): StoredFirewallRejection => ({ ...r, id: Number(r.id) });

/** Tool-firewall rejections in Postgres (append-only, never swept). */
export class PgFirewallLog implements FirewallLog {
  constructor(
    private readonly db: SqlRunner,
    private readonly table = 'guardrails_firewall_rejections',
  ) {}

  async append(r: FirewallRejection): Promise<StoredFirewallRejection> {
    const [row] = await this.db.query<FirewallRow>(
      `INSERT INTO ${this.table} (tool_name, tool_description, principal_id, violations, enforced, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      // Tool names, descriptions and argument names come from callers: scrubbed so any content is logged.
      [
        storableText(r.tool_name),
        storableText(r.tool_description),
        r.principal_id === null ? null : storableText(r.principal_id),
        JSON.stringify(storableValue(r.violations)),
        r.enforced,
        r.occurred_at,
      ],
    );
    return toRejection(row);
  }

  async list(q: FirewallListQuery): Promise<KeysetPage<StoredFirewallRejection>> {
    const where = new WhereBuilder();
    if (q.cursor !== undefined) where.add((p) => `id < ${p}`, q.cursor);
    if (q.principal_id !== undefined) where.add((p) => `principal_id = ${p}`, q.principal_id);
    if (q.q !== undefined) where.add((p) => `(tool_name LIKE ${p} ESCAPE '!' OR tool_description LIKE ${p} ESCAPE '!')`, likeContains(q.q));
    if (q.from) where.add((p) => `occurred_at >= ${p}`, q.from);
    if (q.to) where.add((p) => `occurred_at <= ${p}`, q.to);
    const limit = keysetLimit(q.limit);
    const rows = await this.db.query<FirewallRow>(
      `SELECT ${COLUMNS} FROM ${this.table} ${where.sql} ORDER BY id DESC LIMIT ${where.next(limit + 1)}`,
      where.params,
    );
    return pageOf(rows.map(toRejection), limit);
  }
}
