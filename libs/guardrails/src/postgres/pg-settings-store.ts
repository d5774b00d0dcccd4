import { KeysetPage, KeysetQuery } from '../ports/keyset-page';
import { SettingChangeRecord, SettingsStore, StoredSettingChange } from '../ports/settings-store.port';
import { SettingKey } from '../settings/setting-types';
import { keysetLimit, pageOf } from './keyset-sql';
import { SqlRunner, TransactionalSqlRunner, WhereBuilder } from './tables';

interface ChangeRow {
  id: string;
  actor_id: string | null;
  key: SettingKey;
  old_value: unknown;
  new_value: unknown;
  occurred_at: Date;
}

/**
 * Overrides (one row per key) and the append-only change log, written in one transaction. Values are
 * `json`, not jsonb (see GuardrailsSettingsKeepOrder): a pattern map reads back in the order it was
 * saved, which is the order its rules run in.
 */
export class PgSettingsStore implements SettingsStore {
  readonly writable = true;

  constructor(
    private readonly db: TransactionalSqlRunner,
    private readonly tables: { settings: string; settings_audit: string } = { settings: 'guardrails_settings', settings_audit: 'guardrails_settings_changes' },
  ) {}

  loadOverrides(): Promise<Record<string, unknown>> {
    return this.overridesIn(this.db);
  }

  async updateOverrides<T>(decide: (current: Record<string, unknown>) => { changes: SettingChangeRecord[]; outcome: T }): Promise<T> {
    return this.db.transaction(async (tx) => {
      // Serializes writers on every host until commit, new keys included (a row lock could not
      // cover a key not stored yet). The mode conflicts with itself and with row writes but not with
      // plain reads, so loading settings never waits. Taken before the read: under READ COMMITTED
      // the SELECT below then sees every save committed before this one.
      await tx.query(`LOCK TABLE ${this.tables.settings} IN SHARE ROW EXCLUSIVE MODE`);
      const { changes, outcome } = decide(await this.overridesIn(tx));
      for (const c of changes) {
        await tx.query(
          `INSERT INTO ${this.tables.settings} (key, value, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
          [c.key, JSON.stringify(c.new_value)],
        );
        await tx.query(
          `INSERT INTO ${this.tables.settings_audit} (actor_id, key, old_value, new_value, occurred_at) VALUES ($1, $2, $3, $4, $5)`,
          [c.actor_id, c.key, JSON.stringify(c.old_value ?? null), JSON.stringify(c.new_value ?? null), c.occurred_at],
        );
      }
      return outcome;
    });
  }

  private async overridesIn(db: SqlRunner): Promise<Record<string, unknown>> {
    const rows = await db.query<{ key: string; value: unknown }>(`SELECT key, value FROM ${this.tables.settings}`);
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  async listChanges(q: KeysetQuery): Promise<KeysetPage<StoredSettingChange>> {
    const where = new WhereBuilder();
    if (q.cursor !== undefined) where.add((p) => `id < ${p}`, q.cursor);
    const limit = keysetLimit(q.limit);
    const rows = await this.db.query<ChangeRow>(
      `SELECT id, actor_id, key, old_value, new_value, occurred_at FROM ${this.tables.settings_audit} ${where.sql}
        ORDER BY id DESC LIMIT ${where.next(limit + 1)}`,
      where.params,
    );
    return pageOf(rows.map((r) => ({ ...r, id: Number(r.id) })), limit);
  }
}
