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

  /**
   * Changes the tenant's strategy as `decide` says, given the stored one: read and written under the
   * row's lock, so what `decide` checked (the detokenize permission in force) is still what is
   * replaced, and a concurrent change is never overwritten with a stale value. `decide` throwing
   * leaves the strategy as it was.
   */
  async change(
    tenantId: string,
    userId: string | null,
    decide: (current: Pick<PiiStrategy, 'actions' | 'detokenize_permission'>) => {
      actions: PiiActions;
      detokenizePermission: string;
    },
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      // A tenant without a row yet gets one first, so its first two changes also take turns on the lock.
      await tx.query(
        `INSERT INTO kb_pii_strategies (tenant_id, actions, detokenize_permission) VALUES ($1, '{}'::jsonb, $2) ON CONFLICT (tenant_id) DO NOTHING`,
        [tenantId, DEFAULT_DETOKENIZE_PERMISSION],
      );
      const [row] = await tx.query(
        'SELECT actions, detokenize_permission FROM kb_pii_strategies WHERE tenant_id = $1 FOR UPDATE',
        [tenantId],
      );
      const next = decide({
        actions: completeActions(row.actions),
        detokenize_permission: row.detokenize_permission,
      });
      await tx.query(
        'UPDATE kb_pii_strategies SET actions = $2, detokenize_permission = $3, updated_by = $4, updated_at = now() WHERE tenant_id = $1',
        [tenantId, JSON.stringify(next.actions), next.detokenizePermission, userId],
      );
    });
  }

  tokensOf(tenantId: string, chatLogId: string): Promise<StoredToken[]> {
    return this.db.query(
      'SELECT id, ciphertext FROM kb_pii_tokens WHERE tenant_id = $1 AND chat_log_id = $2',
      [tenantId, chatLogId],
    );
  }
}
