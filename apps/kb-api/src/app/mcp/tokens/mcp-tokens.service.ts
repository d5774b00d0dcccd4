import { Injectable } from '@nestjs/common';
import { generateToken } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import { createHash } from 'node:crypto';
import { Page, PageQueryDto, pageWindow, toPage } from '../../admin/pagination';
import { KbError } from '../../errors/kb-errors';
import { DEFAULT_MCP_SCOPES } from '../mcp-scopes';
import { McpTokenRow, McpTokensRepository } from './mcp-tokens.repository';

const TOKEN_SHAPE = /^mcp_[0-9A-Za-z]{20,100}$/;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface McpTokenView {
  id: number;
  label: string;
  token_last4: string;
  scopes: string[];
  created_by: number | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

export const viewOf = (r: McpTokenRow): McpTokenView => ({
  id: Number(r.id),
  label: r.label,
  token_last4: r.token_last4,
  scopes: r.scopes,
  created_by: r.created_by === null ? null : Number(r.created_by),
  last_used_at: r.last_used_at,
  expires_at: r.expires_at,
  revoked_at: r.revoked_at,
  created_at: r.created_at,
});

/** Issues, lists and revokes tenant MCP tokens (`mcp_…`, shown once, kept as sha256), and checks a presented one. */
@Injectable()
export class McpTokensService {
  constructor(
    private readonly tokens: McpTokensRepository,
    private readonly clock: Clock,
  ) {}

  async issue(
    tenantId: string,
    createdBy: string | null,
    body: { label: string; expires_at?: string | null; scopes?: string[] },
  ): Promise<{ data: McpTokenView; plain_token: string }> {
    const plain = generateToken('mcp');
    const row = await this.tokens.insert({
      tenantId,
      label: body.label,
      hash: sha256(plain),
      last4: plain.slice(-4),
      scopes: body.scopes ?? [...DEFAULT_MCP_SCOPES],
      createdBy,
      expiresAt: body.expires_at ? new Date(body.expires_at) : null,
    });
    return { data: viewOf(row), plain_token: plain };
  }

  async list(tenantId: string, q: PageQueryDto): Promise<Page<McpTokenView>> {
    const w = pageWindow(q);
    const { rows, total } = await this.tokens.page(tenantId, w);
    return toPage(rows.map(viewOf), total, w);
  }

  async revoke(tenantId: string, id: string): Promise<McpTokenView> {
    const row = await this.tokens.revoke(tenantId, id);
    if (!row) throw new KbError(404, 'not_found', 'MCP token not found.');
    return viewOf(row);
  }

  /**
   * The live token behind a presented secret: unknown → 401 mcp_token_invalid; revoked or expired
   * → 403 with its own code, so a client can tell a typo from a token that has to be replaced.
   */
  async authenticate(plain: string): Promise<McpTokenRow> {
    const row = await this.find(plain);
    if (!row) throw new KbError(401, 'mcp_token_invalid', 'The MCP token is invalid.');
    await this.assertUsable(row);
    return row;
  }

  /** The token's row, usable or not (revoked, expired); null when no such token exists. */
  async find(plain: string): Promise<McpTokenRow | null> {
    return TOKEN_SHAPE.test(plain) ? this.tokens.findByHash(sha256(plain)) : null;
  }

  /** Refuses a revoked or expired token; records the use of a usable one. */
  async assertUsable(row: McpTokenRow): Promise<void> {
    const refusal = this.refusalOf(row);
    if (refusal) throw refusal;
    await this.tokens.touch(row.id);
  }

  /**
   * Why a token of the tenant can no longer act (revoked, expired, gone), or null while it can. For
   * work done later on a token's behalf, such as a parked call a human approves after the token
   * was revoked: it runs only while the token could still have asked for it.
   */
  async refusalFor(tenantId: string, id: string): Promise<KbError | null> {
    const row = await this.tokens.byId(tenantId, id);
    return row ? this.refusalOf(row) : new KbError(403, 'mcp_token_revoked', 'The MCP token no longer exists.');
  }

  private refusalOf(row: McpTokenRow): KbError | null {
    if (row.revoked_at) return new KbError(403, 'mcp_token_revoked', 'The MCP token has been revoked.');
    if (row.expires_at && row.expires_at.getTime() <= this.clock.nowMs()) return new KbError(403, 'mcp_token_expired', 'The MCP token has expired.');
    return null;
  }
}
