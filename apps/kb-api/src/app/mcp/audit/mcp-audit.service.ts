import { Injectable, Logger } from '@nestjs/common';
import { redactPii, storableText, storableValue } from '@platform/guardrails';
import { createHash } from 'node:crypto';
import { Page, pageWindow, toPage } from '../../admin/pagination';
import { McpAuditEntry, McpAuditFilters, McpAuditRepository, McpAuditRow, McpCallOutcome } from './mcp-audit.repository';
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

/** The audit row could not be written: the call must not run (or, once run, not be answered). */
export class McpAuditUnavailable extends Error {
  constructor(cause: unknown) {
    super(`MCP audit write failed: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'McpAuditUnavailable';
  }
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

  /**
   * Writes one call's row and returns its id. Any content is stored (NUL and lone surrogates
   * scrubbed, personal data masked); a failed write is McpAuditUnavailable, and the caller fails
   * closed: nothing runs unaudited.
   */
  async record(e: Omit<McpAuditEntry, 'argumentsHash' | 'arguments'> & { arguments: unknown }): Promise<string> {
    const args = e.arguments !== null && typeof e.arguments === 'object' && !Array.isArray(e.arguments) ? e.arguments : { _arguments: e.arguments ?? null };
    try {
      return await this.audit.insert({
        ...e,
        tool: storableText(e.tool),
        reason: e.reason === null ? null : storableText(e.reason),
        // The hash is over the arguments as sent, so the same call still gives the same hash.
        argumentsHash: createHash('sha256').update(canonicalJson(args)).digest('hex'),
        arguments: storableValue(redact(args)) as Record<string, unknown>,
      });
    } catch (err) {
      this.logger.error(`MCP audit write failed: ${(err as Error).message}`);
      throw new McpAuditUnavailable(err);
    }
  }

  /** Sets the outcome of a row written before the tool ran; a failure is McpAuditUnavailable. */
  async finish(tenantId: string, id: string, outcome: McpCallOutcome, reason: string | null, durationMs: number): Promise<void> {
    let updated: boolean;
    try {
      updated = await this.audit.finish(tenantId, id, outcome, reason === null ? null : storableText(reason), durationMs);
    } catch (err) {
      this.logger.error(`MCP audit update failed: ${(err as Error).message}`);
      throw new McpAuditUnavailable(err);
    }
    if (!updated) throw new McpAuditUnavailable(new Error(`audit row ${id} is missing`));
  }

  async list(tenantId: string, q: McpAuditQueryDto): Promise<Page<ReturnType<typeof viewOf>>> {
    const w = pageWindow(q);
    const filters: McpAuditFilters = { tool: q.tool, outcome: q.outcome, tokenId: q.token_id, from: q.from, to: q.to };
    const { rows, total } = await this.audit.page(tenantId, filters, w);
    return toPage(rows.map(viewOf), total, w);
  }
}
