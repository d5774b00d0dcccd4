import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { startKb } from './kb-test-env';

/**
 * Keys named after Object.prototype members (toString, valueOf, constructor, __proto__) in a
 * request body are keys like any other: the body's rules see them (a free-form object's keys are
 * judged as its own, a DTO refuses them as unknown) and __proto__ is refused, never a prototype.
 * Sent as raw JSON: a JS object literal would take "__proto__" as its prototype.
 */
describe('kb-api: keys named after Object.prototype members reach validation', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let admin: Caller;

  const send = async (method: string, path: string, json: string) => {
    const r = await fetch(svc.url + path, { method, headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body: json });
    const body = (await r.json()) as { errors?: Record<string, string[]>; preferences?: Record<string, unknown> };
    return { status: r.status, body, fields: Object.keys(body.errors ?? {}).sort() };
  };

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    admin = await callerWith(svc.url, db, { email: 'admin@proto-keys.test', roles: ['admin'] });
  });
  afterAll(() => stop());

  it('a free-form object (compliance retention_days) judges them as table names: unknown, 422 naming each', async () => {
    const reports = '/api/admin/compliance/reports';
    for (const key of ['toString', 'valueOf', 'constructor', 'hasOwnProperty']) {
      const r = await send('POST', reports, `{"kind":"retention","retention_days":{"${key}":5}}`);
      expect([key, r.status, r.fields]).toEqual([key, 422, [`retention_days.${key}`]]);
      expect(r.body.errors![`retention_days.${key}`]![0]).toMatch(/^Unknown table/);
    }
    const proto = await send('POST', reports, '{"kind":"retention","retention_days":{"__proto__":{"kb_chat_logs":0}}}');
    expect([proto.status, proto.fields]).toEqual([422, ['retention_days.__proto__']]);
    const fine = await send('POST', reports, '{"kind":"retention","retention_days":{"kb_chat_logs":0}}');
    expect(fine.status).toBe(201);
  });

  it('a DTO refuses them as unknown properties', async () => {
    for (const key of ['toString', 'constructor', '__proto__']) {
      const r = await send('POST', '/api/admin/compliance/reports', `{"kind":"retention","${key}":{}}`);
      expect([key, r.status, r.fields]).toEqual([key, 422, [key]]);
    }
  });

  it('chat preferences: valueOf is a malformed key (422), constructor a valid one that is stored', async () => {
    const upper = await send('PATCH', '/api/me/chat-preferences', '{"preferences":{"valueOf":false}}');
    expect([upper.status, upper.fields]).toEqual([422, ['preferences.valueOf']]);
    const proto = await send('PATCH', '/api/me/chat-preferences', '{"preferences":{"__proto__":true}}');
    expect([proto.status, proto.fields]).toEqual([422, ['preferences.__proto__']]);
    const kept = await send('PATCH', '/api/me/chat-preferences', '{"preferences":{"constructor":true,"compact":false}}');
    expect([kept.status, kept.body.preferences]).toEqual([200, { constructor: true, compact: false }]);
    const read = await fetch(`${svc.url}/api/me/chat-preferences`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(((await read.json()) as { preferences: unknown }).preferences).toEqual({ constructor: true, compact: false });
  });
});
