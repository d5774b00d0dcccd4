import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';
import { dateInputMessage } from '../src/app/validation/date-input';

/**
 * Every date kb-api takes is a full date or a full date-time with its zone. ISO 8601's reduced
 * forms passed class-validator's strict check, failed in Postgres (SQLSTATE 22007) and came back
 * as a 422 under `request`, with a false 500 row in the application log.
 */
describe('kb-api: dates are full dates or date-times with a zone, refused by field otherwise', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let admin: Caller;
  const as = (who: Caller, method: string, path: string, body?: unknown, headers?: Record<string, string>) => new KbClient(svc.url).call(method, path, { token: who.token, body, headers });

  const PARTIAL = ['2026', '2026-11', '2026-W48', '2026-332', '2026-11-27T22', '2026-11-27T22:49:12'];

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb({ KB_MCP_ENABLED: 'true' }));
    admin = await callerWith(svc.url, db, { email: 'admin@dates.test', roles: ['super-admin'] });
  });
  afterAll(() => stop());

  it('refuses a partial date with 422 naming the field, on every list window and body date', async () => {
    const lists = ['/api/admin/logs/chat', '/api/admin/logs/application', '/api/admin/logs/activity', '/api/admin/compliance/reports', '/api/admin/workflows', '/api/admin/mcp-tool-call-audit'];
    for (const list of lists) {
      for (const field of ['from', 'to']) {
        for (const value of PARTIAL) {
          const r = await as(admin, 'GET', `${list}?${field}=${encodeURIComponent(value)}`);
          expect([list, field, value, r.status, r.body.errors]).toEqual([list, field, value, 422, { [field]: [dateInputMessage(field)] }]);
        }
      }
      const fine = await as(admin, 'GET', `${list}?from=2026-11-27&to=${encodeURIComponent('2026-11-27T22:49:12.182+01:00')}`);
      expect([list, fine.status]).toEqual([list, 200]);
    }
    for (const value of PARTIAL) {
      const r = await as(admin, 'POST', '/api/admin/insights/compute', { from: value });
      expect([value, r.status, r.body.errors]).toEqual([value, 422, { from: [dateInputMessage('from')] }]);
      const token = await as(admin, 'POST', '/api/admin/mcp/tokens', { label: 'x', expires_at: value.replace('2026', '2099') });
      expect([value, token.status, Object.keys(token.body.errors ?? {})]).toEqual([value, 422, ['expires_at']]);
    }
    // None reached Postgres: no request was logged as a server error.
    expect(await db.query('SELECT status, route FROM kb_application_logs')).toEqual([]);
  });
});
