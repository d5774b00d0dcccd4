import { DEFAULT_SETTINGS } from '../settings/defaults';
import { isDestructiveTool } from './destructive-tools';
import { ToolDefinition } from './tool-definition';
import { decideToolCall, FirewallSettings, firewallSettingsOf } from './tool-firewall';

const settings = (over: Partial<FirewallSettings> = {}): FirewallSettings => ({ ...firewallSettingsOf(DEFAULT_SETTINGS), ...over });

const listOrders: ToolDefinition = {
  name: 'list_orders',
  description: 'Lists the orders of a customer',
  inputSchema: {
    type: 'object',
    properties: {
      customer_id: { type: 'integer' },
      status: { type: 'string', enum: ['open', 'closed'] },
      limit: { type: 'integer', minimum: 1 },
      filter: { type: 'object' },
    },
    required: ['status'],
  },
};

describe('decideToolCall', () => {
  it('overwrites declared owner keys with the caller, injecting them and typing them by schema', () => {
    const d = decideToolCall({ tool: listOrders, arguments: { status: 'open', customer_id: 999 }, principalId: '42' }, settings());
    expect(d).toMatchObject({ verdict: 'allowed', arguments: { status: 'open', customer_id: 42 }, violations: {} });
    const injected = decideToolCall({ tool: listOrders, arguments: { status: 'open' }, principalId: 'u-7' }, settings());
    expect(injected.arguments).toEqual({ status: 'open', customer_id: 'u-7' });
  });

  it('overwrites nested owner keys already present when recursive, never injecting, and leaves them at top_level', () => {
    const args = { status: 'open', filter: { owner_id: 'victim', items: [{ user_id: 5 }, { note: 'x' }] } };
    const recursive = decideToolCall({ tool: listOrders, arguments: args, principalId: '42' }, settings());
    expect(recursive.arguments['filter']).toEqual({ owner_id: '42', items: [{ user_id: 42 }, { note: 'x' }] });
    const topLevel = decideToolCall({ tool: listOrders, arguments: args, principalId: '42' }, settings({ ownerKeyDepth: 'top_level' }));
    expect(topLevel.arguments['filter']).toEqual(args.filter);
  });

  it('refuses a call whose owner keys cannot be scoped because nobody is authenticated, in any mode', () => {
    for (const firewallMode of ['enforce', 'monitor'] as const) {
      const d = decideToolCall({ tool: listOrders, arguments: { status: 'open', filter: { user_id: 1 } }, principalId: null }, settings({ firewallMode }));
      expect(d).toMatchObject({ verdict: 'rejected', reason: 'owner_unavailable' });
      expect(Object.keys(d.violations).sort()).toEqual(['customer_id', 'filter.user_id']);
    }
  });

  it('strips unknown arguments, or rejects them when reject_unknown_arguments is on', () => {
    // Parsed JSON can carry "__proto__" as an ordinary key; it must be stripped like any other.
    const call = { tool: listOrders, arguments: JSON.parse('{"status":"open","debug":true,"__proto__":{"admin":true}}'), principalId: 1 };
    const stripped = decideToolCall(call, settings());
    expect(stripped).toMatchObject({ verdict: 'allowed', stripped: ['debug', '__proto__'], arguments: { status: 'open', customer_id: 1 } });
    expect(Object.keys(stripped.arguments)).toEqual(['status', 'customer_id']);
    const rejected = decideToolCall(call, settings({ rejectUnknownArguments: true }));
    expect(rejected).toMatchObject({ verdict: 'rejected', reason: 'invalid_arguments' });
    expect(rejected.violations['debug']).toBe('Unknown argument [debug] is not declared in the tool schema.');
  });

  it('validates arguments against the schema with readable reasons', () => {
    const d = decideToolCall({ tool: listOrders, arguments: { limit: '5', filter: 3 }, principalId: 1 }, settings());
    expect(d).toMatchObject({ verdict: 'rejected', enforced: true });
    expect(d.violations).toEqual({
      status: 'Missing required argument [status].',
      limit: 'Argument [limit] must be of type [integer].',
      filter: 'Argument [filter] must be of type [object].',
    });
    const nested = decideToolCall({ tool: listOrders, arguments: { status: 'gone', limit: 0 }, principalId: 1 }, settings());
    expect(nested.violations['status']).toMatch(/^Argument \[status\] must be equal to one of the allowed values/);
    expect(nested.violations['limit']).toMatch(/^Argument \[limit\] must be >= 1/);
    expect(decideToolCall({ tool: listOrders, arguments: 'x', principalId: 1 }, settings()).violations).toEqual({ _arguments: 'Arguments must be an object.' });
  });

  it('records violations but lets the call through unstripped in monitor mode', () => {
    const d = decideToolCall({ tool: listOrders, arguments: { status: 5, debug: 1 }, principalId: 1 }, settings({ firewallMode: 'monitor' }));
    expect(d).toMatchObject({ verdict: 'allowed', enforced: false, reason: 'invalid_arguments', stripped: ['debug'] });
    expect(d.arguments).toEqual({ status: 5, debug: 1, customer_id: 1 });
    expect(d.violations).toEqual({ status: 'Argument [status] must be of type [string].' });
  });

  it('checks nothing when the firewall is off, but still scopes owner keys', () => {
    const d = decideToolCall({ tool: listOrders, arguments: { status: 5, debug: 1, user_id: 'x' }, principalId: 7 }, settings({ firewallEnabled: false }));
    expect(d).toMatchObject({ verdict: 'allowed', violations: {}, arguments: { status: 5, debug: 1, user_id: '7', customer_id: 7 } });
    const off = decideToolCall({ tool: listOrders, arguments: { customer_id: 1 }, principalId: 7 }, settings({ firewallMode: 'off', authorizationEnabled: false }));
    expect(off.arguments).toEqual({ customer_id: 1 });
  });

  it('rejects a call against an invalid tool schema instead of running it unchecked', () => {
    const broken: ToolDefinition = { name: 'x', inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } };
    expect(decideToolCall({ tool: broken, arguments: { a: 1 }, principalId: 1 }, settings()).violations['_schema']).toMatch(/Tool schema is invalid/);
  });

  it('routes destructive tools to approval when HITL enforces, and only flags them when it monitors', () => {
    const refund: ToolDefinition = { name: 'refund_order', inputSchema: { type: 'object', properties: { order: { type: 'string' } } } };
    const call = { tool: refund, arguments: { order: 'A1' }, principalId: 1 };
    expect(decideToolCall(call, settings())).toMatchObject({ verdict: 'allowed', destructive: false });
    expect(decideToolCall(call, settings({ hitlEnabled: true }))).toMatchObject({ verdict: 'needs_approval', destructive: true });
    expect(decideToolCall(call, settings({ hitlEnabled: true, hitlMode: 'monitor' }))).toMatchObject({ verdict: 'allowed', destructive: true });
    expect(decideToolCall(call, settings({ hitlEnabled: true, destructiveMatch: 'exact' }))).toMatchObject({ verdict: 'allowed', destructive: false });
    expect(decideToolCall({ ...call, arguments: { order: 1 } }, settings({ hitlEnabled: true }))).toMatchObject({ verdict: 'rejected' });
  });
});

describe('isDestructiveTool', () => {
  it('matches exactly or by substring, ignoring case', () => {
    expect(isDestructiveTool('delete', ['delete'], 'exact')).toBe(true);
    expect(isDestructiveTool('Delete', ['delete'], 'exact')).toBe(true);
    expect(isDestructiveTool('delete_user', ['delete'], 'exact')).toBe(false);
    expect(isDestructiveTool('delete_user', ['delete'], 'substring')).toBe(true);
    expect(isDestructiveTool('list_users', ['delete', 'refund'], 'substring')).toBe(false);
  });
});
