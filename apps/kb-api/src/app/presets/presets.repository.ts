import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';

export interface PresetRow {
  id: string;
  name: string;
  filters: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, filters, created_at, updated_at';

/** Thrown when a user already has a preset of that name (the table's unique index said so). */
export class DuplicatePresetName extends Error {}

const isUniqueViolation = (e: unknown) => e instanceof QueryFailedError && (e.driverError as { code?: string })?.code === '23505';

/** Chat-filter presets, always looked up by tenant and owner: another user's id finds nothing. */
@Injectable()
export class PresetsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  list(tenantId: string, userId: string): Promise<PresetRow[]> {
    return this.db.query(`SELECT ${COLUMNS} FROM kb_chat_filter_presets WHERE tenant_id = $1 AND user_id = $2 ORDER BY name, id`, [tenantId, userId]);
  }

  async find(tenantId: string, userId: string, id: string): Promise<PresetRow | null> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_chat_filter_presets WHERE tenant_id = $1 AND user_id = $2 AND id = $3`, [tenantId, userId, id]);
    return row ?? null;
  }

  /** Throws DuplicatePresetName when the name is taken. */
  async create(tenantId: string, userId: string, name: string, filters: object): Promise<PresetRow> {
    return this.translatingDuplicates(async () => {
      const [row] = await this.db.query(
        `INSERT INTO kb_chat_filter_presets (tenant_id, user_id, name, filters) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [tenantId, userId, name, JSON.stringify(filters)],
      );
      return row;
    });
  }

  /** Null when there is no such preset; throws DuplicatePresetName when the new name is taken. */
  async update(tenantId: string, userId: string, id: string, name: string, filters: object): Promise<PresetRow | null> {
    return this.translatingDuplicates(async () => {
      const [rows] = await this.db.query(
        `UPDATE kb_chat_filter_presets SET name = $4, filters = $5, updated_at = now() WHERE tenant_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
        [tenantId, userId, id, name, JSON.stringify(filters)],
      );
      return rows[0] ?? null;
    });
  }

  /** Whether a row was deleted. */
  async remove(tenantId: string, userId: string, id: string): Promise<boolean> {
    const [, count] = await this.db.query('DELETE FROM kb_chat_filter_presets WHERE tenant_id = $1 AND user_id = $2 AND id = $3', [tenantId, userId, id]);
    return Number(count) > 0;
  }

  private async translatingDuplicates<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicatePresetName();
      throw e;
    }
  }
}
