import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { completeActions, DEFAULT_DETOKENIZE_PERMISSION, PiiActions } from './pii-policy';

export interface PiiStrategy {
  actions: PiiActions;
  detokenize_permission: string;
  updated_at: string | null;
  updated_by: string | null;
}

export interface StoredToken {
  id: string;
  ciphertext: string;
}

/** kb_pii_strategies, and reads of kb_pii_tokens (chat's log writer stores them), always by tenant. */
@Injectable()
export class PiiStrategyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(tenantId: string): Promise<PiiStrategy> {
    const [row] = await this.db.query(
      'SELECT actions, detokenize_permission, updated_at, updated_by FROM kb_pii_strategies WHERE tenant_id = $1',
      [tenantId],
    );
    if (!row)
      return {
        actions: completeActions(),
        detokenize_permission: DEFAULT_DETOKENIZE_PERMISSION,
        updated_at: null,
        updated_by: null,
      };
    return {
      actions: completeActions(row.actions),
      detokenize_permission: row.detokenize_permission,
      updated_at: new Date(row.updated_at).toISOString(),
      updated_by: row.updated_by === null ? null : String(row.updated_by),
    };
  }

  async save(
    tenantId: string,
    actions: PiiActions,
    detokenizePermission: string,
    userId: string | null,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_pii_strategies (tenant_id, actions, detokenize_permission, updated_by, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (tenant_id) DO UPDATE SET actions = EXCLUDED.actions, detokenize_permission = EXCLUDED.detokenize_permission, updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [tenantId, JSON.stringify(actions), detokenizePermission, userId],
    );
  }

  tokensOf(tenantId: string, chatLogId: string): Promise<StoredToken[]> {
    return this.db.query(
      'SELECT id, ciphertext FROM kb_pii_tokens WHERE tenant_id = $1 AND chat_log_id = $2',
      [tenantId, chatLogId],
    );
  }
}
