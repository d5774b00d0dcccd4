import { McpAuditEntry, McpAuditRepository } from './mcp-audit.repository';
import { McpAuditService, McpAuditUnavailable } from './mcp-audit.service';

describe('McpAuditService.record', () => {
  const written: McpAuditEntry[] = [];
  const service = new McpAuditService({ insert: async (e: McpAuditEntry) => void written.push(e) } as unknown as McpAuditRepository);
  const base = { tenantId: 't', tokenId: '1', userId: '2', tool: 'kb-search', outcome: 'ok' as const, reason: null, durationMs: 3 };

  beforeEach(() => (written.length = 0));

  it('hashes the arguments independently of key order and masks personal data in what it keeps', async () => {
    await service.record({ ...base, arguments: { query: 'write to ann@example.com', limit: 2, nested: { b: 1, a: [1, 'x'] } } });
    await service.record({ ...base, arguments: { nested: { a: [1, 'x'], b: 1 }, limit: 2, query: 'write to ann@example.com' } });
    expect(written[0].argumentsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(written[1].argumentsHash).toBe(written[0].argumentsHash);
    expect(written[0].arguments).toEqual({ query: 'write to [REDACTED:email]', limit: 2, nested: { b: 1, a: [1, 'x'] } });
    await service.record({ ...base, arguments: { query: 'write to bob@example.com', limit: 2, nested: { b: 1, a: [1, 'x'] } } });
    expect(written[2].argumentsHash).not.toBe(written[0].argumentsHash);
  });

  it('cuts long text and keeps arguments that are not an object under _arguments', async () => {
    await service.record({ ...base, arguments: { transcript: 'a'.repeat(2000) } });
    expect((written[0].arguments['transcript'] as string).length).toBe(501);
    await service.record({ ...base, arguments: 'just text' });
    expect(written[1].arguments).toEqual({ _arguments: 'just text' });
  });

  it('raises McpAuditUnavailable when the audit write fails, so the caller fails closed', async () => {
    const failing = new McpAuditService({ insert: async () => Promise.reject(new Error('db down')) } as unknown as McpAuditRepository);
    await expect(failing.record({ ...base, arguments: {} })).rejects.toBeInstanceOf(McpAuditUnavailable);
  });

  it('keeps NUL and lone surrogates out of what it stores, keys included', async () => {
    await service.record({ ...base, tool: 'kb\u0000', arguments: { 'q\u0000': 'a\u0000b\udc00' } });
    expect(written[0].tool).toBe('kb\uFFFD');
    expect(written[0].arguments).toEqual({ 'q\uFFFD': 'a\uFFFDb\uFFFD' });
  });
});
