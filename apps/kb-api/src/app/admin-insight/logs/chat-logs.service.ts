import { Injectable } from '@nestjs/common';
import { EnvelopeCipher } from '@platform/crypto';
import { isRowId, Page, pageWindow } from '../../admin/pagination';
import type { KbPrincipal } from '../../auth/kb-principal';
import { KbError, KbMessage } from '../../errors/kb-errors';
import { tokenContext } from '../pii/pii-crypto';
import { restoreText } from '../pii/pii-policy';
import { PiiStrategyRepository } from '../pii/pii-strategy.repository';
import { ChatLogQueryDto } from '../range-query.dto';
import { ChatLogDetail, ChatLogRow, ChatLogsRepository } from './chat-logs.repository';

const notFound = () => new KbError(404, 'not_found', 'Chat log not found.');

/** The chat logs of the active tenant, and the reversal of their tokenized values for those allowed. */
@Injectable()
export class ChatLogsService {
  constructor(
    private readonly logs: ChatLogsRepository,
    private readonly strategies: PiiStrategyRepository,
    private readonly cipher: EnvelopeCipher,
  ) {}

  list(tenantId: string, q: ChatLogQueryDto): Promise<Page<ChatLogRow>> {
    return this.logs.list(tenantId, q, pageWindow(q));
  }

  async show(tenantId: string, id: string): Promise<ChatLogDetail> {
    const row = isRowId(id) ? await this.logs.find(tenantId, id) : null;
    if (!row) throw notFound();
    return row;
  }

  /**
   * The original question and answer: tokenized values decrypted back in place (masked ones are
   * gone for good). Needs the permission the tenant's strategy names (default pii.detokenize).
   */
  async detokenize(
    p: KbPrincipal,
    id: string,
  ): Promise<{
    id: string;
    question: string;
    answer: string;
    restored_values: number;
    unrecoverable: number;
  }> {
    const { detokenize_permission } = await this.strategies.find(p.tenantId);
    if (!p.permissions.includes(detokenize_permission))
      throw new KbMessage(403, 'This action is unauthorized.');
    const row = await this.show(p.tenantId, id);
    const values = new Map<string, string>();
    let unrecoverable = 0;
    for (const t of await this.strategies.tokensOf(p.tenantId, row.id)) {
      try {
        values.set(t.id, this.cipher.decrypt(t.ciphertext, tokenContext(p.tenantId, t.id)));
      } catch {
        // A key retired from the ring: that value stays a placeholder, the rest still comes back.
        unrecoverable++;
      }
    }
    return {
      id: row.id,
      question: restoreText(row.question, values),
      answer: restoreText(row.answer, values),
      restored_values: values.size,
      unrecoverable,
    };
  }
}
