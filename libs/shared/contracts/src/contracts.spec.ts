import { ALL_SCOPES, QUEUES, SERVICES } from './index';

describe('contracts', () => {
  it('lists every scope the gateway contract names', () => {
    expect([...ALL_SCOPES].sort()).toEqual(
      ['evidence:review', 'guardrails:admin', 'iam:applications.read', 'iam:clients.manage', 'kb:chat', 'kb:read', 'mcp:read', 'mcp:tools:propose'].sort(),
    );
  });

  it('names queues <service>.<purpose>', () => {
    for (const name of Object.values(QUEUES)) expect(name).toMatch(/^[a-z]+\.[a-z-]+$/);
  });

  it('gives every service a distinct port', () => {
    const ports = Object.values(SERVICES).map((s) => s.port);
    expect(new Set(ports).size).toBe(ports.length);
  });
});
