import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SettingsKind } from './knowledge-settings';

export interface StoredSettings {
  value: Record<string, unknown>;
  updated_at: Date;
}

/** kb_admin_settings: one JSON value per (tenant, kind). */
@Injectable()
export class SettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get(tenantId: string, kind: SettingsKind): Promise<StoredSettings | null> {
    const [row] = await this.db.query('SELECT value, updated_at FROM kb_admin_settings WHERE tenant_id = $1 AND kind = $2', [tenantId, kind]);
    return row ?? null;
  }

  async put(tenantId: string, kind: SettingsKind, value: object, userId: string | null): Promise<StoredSettings> {
    const [row] = await this.db.query(
      `INSERT INTO kb_admin_settings (tenant_id, kind, value, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, kind) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()
       RETURNING value, updated_at`,
      [tenantId, kind, JSON.stringify(value), userId],
    );
    return row;
  }
}
