import { Injectable, Logger } from '@nestjs/common';
import { redactPii } from '@platform/guardrails';
import { createHash } from 'node:crypto';
import { Page, pageWindow, toPage } from '../../admin/pagination';
import { McpAuditEntry, McpAuditFilters, McpAuditRepository, McpAuditRow } from './mcp-audit.repository';
import { McpAuditQueryDto } from './mcp-audit.dto';

const MAX_TEXT = 500;

/** Same value, same hash, whatever the key order: calls can be matched without keeping the arguments. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Text with personal data masked and cut short (a transcript is not an audit record). */
function redact(value: unknown): unknown {
  if (typeof value === 'string') {
    const { text } = redactPii(value);
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  }
  if (Array.isArray(value)) return value.slice(0, 50).map(redact);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
  return value;
}

const viewOf = (r: McpAuditRow) => ({
  id: Number(r.id),
  token_id: r.token_id === null ? null : Number(r.token_id),
  user_id: r.user_id === null ? null : Number(r.user_id),
  tool: r.tool,
  arguments_hash: r.arguments_hash,
  arguments: r.arguments,
  outcome: r.outcome,
  reason: r.reason,
  duration_ms: r.duration_ms,
  created_at: r.created_at,
});

/** Records every tools/call (arguments hashed and redacted) and lists the tenant's records. */
@Injectable()
export class McpAuditService {
  private readonly logger = new Logger('McpAudit');

  constructor(private readonly audit: McpAuditRepository) {}

  async record(e: Omit<McpAuditEntry, 'argumentsHash' | 'arguments'> & { arguments: unknown }): Promise<void> {
    const args = e.arguments !== null && typeof e.arguments === 'object' && !Array.isArray(e.arguments) ? e.arguments : { _arguments: e.arguments ?? null };
    try {
      await this.audit.insert({
        ...e,
        argumentsHash: createHash('sha256').update(canonicalJson(args)).digest('hex'),
        arguments: redact(args) as Record<string, unknown>,
      });
    } catch (err) {
      // The caller already has its answer; a lost audit row is logged, never turned into a failed call.
      this.logger.error(`MCP audit write failed: ${(err as Error).message}`);
    }
  }

  async list(tenantId: string, q: McpAuditQueryDto): Promise<Page<ReturnType<typeof viewOf>>> {
    const w = pageWindow(q);
    const filters: McpAuditFilters = { tool: q.tool, outcome: q.outcome, tokenId: q.token_id, from: q.from, to: q.to };
    const { rows, total } = await this.audit.page(tenantId, filters, w);
    return toPage(rows.map(viewOf), total, w);
  }
}
