import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { KbError, KbValidationError } from '../errors/kb-errors';

interface PresetRow {
  id: string;
  name: string;
  filters: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, filters, created_at, updated_at';
const present = (r: PresetRow) => ({ ...r, id: Number(r.id) });
const notFound = () => new KbError(404, 'not_found', 'Preset not found.');
const duplicateName = () => new KbValidationError({ name: ['You already have a preset with this name.'] });
const isUniqueViolation = (e: unknown) => e instanceof QueryFailedError && (e.driverError as { code?: string })?.code === '23505';

/** Chat-filter presets: each user's own, names unique per user; someone else's is simply not there (404). */
@Injectable()
export class PresetsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(tenantId: string, userId: string) {
    const rows: PresetRow[] = await this.db.query(`SELECT ${COLUMNS} FROM kb_chat_filter_presets WHERE tenant_id = $1 AND user_id = $2 ORDER BY name, id`, [tenantId, userId]);
    return rows.map(present);
  }

  async get(tenantId: string, userId: string, id: string) {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_chat_filter_presets WHERE tenant_id = $1 AND user_id = $2 AND id = $3`, [tenantId, userId, id]);
    if (!row) throw notFound();
    return present(row);
  }

  async create(tenantId: string, userId: string, name: string, filters: object) {
    try {
      const [row] = await this.db.query(
        `INSERT INTO kb_chat_filter_presets (tenant_id, user_id, name, filters) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [tenantId, userId, name, JSON.stringify(filters)],
      );
      return present(row);
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateName();
      throw e;
    }
  }

  async update(tenantId: string, userId: string, id: string, name: string, filters: object) {
    try {
      const [rows] = await this.db.query(
        `UPDATE kb_chat_filter_presets SET name = $4, filters = $5, updated_at = now() WHERE tenant_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
        [tenantId, userId, id, name, JSON.stringify(filters)],
      );
      if (!rows[0]) throw notFound();
      return present(rows[0]);
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateName();
      throw e;
    }
  }

  async remove(tenantId: string, userId: string, id: string): Promise<void> {
    const [, count] = await this.db.query('DELETE FROM kb_chat_filter_presets WHERE tenant_id = $1 AND user_id = $2 AND id = $3', [tenantId, userId, id]);
    if (!count) throw notFound();
  }
}
