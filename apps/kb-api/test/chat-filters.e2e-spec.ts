import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';
import { dateInputMessage } from '../src/app/validation/date-input';

type Filters = Record<string, unknown>;

/**
 * The chat's filters have one set of rules wherever they are taken: the chat (both request paths),
 * retrieve, a conversation's message and a saved chat-filter preset, which must never hold filters
 * the chat would refuse.
 */
describe('kb-api: chat filters follow one set of rules on every route that takes them', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let user: Caller;
  let conversation: number;
  let preset: number;
  const as = (method: string, path: string, body?: unknown) => new KbClient(svc.url).call(method, path, { token: user.token, body });

  /** Each route that takes chat filters, with the body that carries them. */
  const routes: Array<[string, string, () => string, (filters: Filters) => unknown]> = [
    ['chat', 'POST', () => '/api/kb/chat', (filters) => ({ question: 'backups', filters })],
    ['chat through Nest', 'POST', () => '/api/kb/chat?via=nest', (filters) => ({ question: 'backups', filters })],
    ['retrieve', 'POST', () => '/api/kb/retrieve', (filters) => ({ query: 'backups', filters })],
    ['retrieve through Nest', 'POST', () => '/api/kb/retrieve?via=nest', (filters) => ({ query: 'backups', filters })],
    ['a conversation message', 'POST', () => `/api/conversations/${conversation}/messages`, (filters) => ({ content: 'backups', filters })],
    ['a new preset', 'POST', () => '/api/chat-filter-presets', (filters) => ({ name: `p ${JSON.stringify(filters)}`, filters })],
    ['a preset update', 'PUT', () => `/api/chat-filter-presets/${preset}`, (filters) => ({ name: 'saved', filters })],
  ];
  const refusals = async (filters: Filters) => {
    const out: Array<[string, number, string[]]> = [];
    for (const [name, method, path, body] of routes) {
      const r = await as(method, path(), body(filters));
      out.push([name, r.status, Object.keys(r.body?.errors ?? {}).sort()]);
    }
    return out;
  };
  const everywhere = (status: number, fields: string[]) => routes.map(([name]): [string, number, string[]] => [name, status, fields]);

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    user = await callerWith(svc.url, db, { email: 'filters@chat.test', roles: ['admin'] });
    conversation = (await as('POST', '/api/conversations', {})).body.id;
    preset = (await as('POST', '/api/chat-filter-presets', { name: 'saved', filters: { project_keys: ['ops'] } })).body.data.id;
  });
  afterAll(() => stop());

  it('refuses a partial or zone-less date with 422 naming the filter, before Postgres sees it', async () => {
    for (const partial of ['2026', '2026-11', '2026-W48', '2026-11-27T22', '2026-11-27T22:49:12']) {
      expect([partial, await refusals({ date_from: partial })]).toEqual([partial, everywhere(422, ['filters.date_from'])]);
      expect([partial, await refusals({ date_to: partial })]).toEqual([partial, everywhere(422, ['filters.date_to'])]);
    }
    const r = await as('POST', '/api/kb/retrieve', { query: 'x', filters: { date_to: '2026' } });
    expect(r.body.errors).toEqual({ 'filters.date_to': [dateInputMessage('date to')] });
    expect(await db.query('SELECT status, route FROM kb_application_logs')).toEqual([]);
  });

  it('takes full dates and date-times with a zone', async () => {
    const created = new Set(['a conversation message', 'a new preset']);
    expect(await refusals({ date_from: '2026-01-01', date_to: '2026-11-27T22:49:12.182+01:00' })).toEqual(routes.map(([name]) => [name, created.has(name) ? 201 : 200, []]));
  });

  it('refuses date_to before date_from by the day each names, a preset as the chat does', async () => {
    for (const [date_from, date_to] of [['2026-02-01', '2026-01-01'], ['2026-02-01T00:30:00+05:00', '2026-01-31T23:00:00Z'], ['2026-02-01', '2026-01-31T23:59:59-14:00']]) {
      expect([date_from, date_to, await refusals({ date_from, date_to })]).toEqual([date_from, date_to, everywhere(422, ['filters.date_to'])]);
    }
    const r = await as('POST', '/api/chat-filter-presets', { name: 'backwards', filters: { date_from: '2026-02-01', date_to: '2026-01-01' } });
    expect(r.body.errors).toEqual({ 'filters.date_to': ['The end date must be on or after the start date.'] });
    // The same day twice (whatever the times) is a one-day range, on every route.
    const created = new Set(['a conversation message', 'a new preset']);
    expect(await refusals({ date_from: '2026-02-01T18:00:00Z', date_to: '2026-02-01T09:00:00Z' })).toEqual(routes.map(([name]) => [name, created.has(name) ? 201 : 200, []]));
    // The preset kept the last filters it was given, never refused ones.
    const saved = (await as('GET', '/api/chat-filter-presets')).body.data.find((p: { id: number }) => p.id === preset);
    expect(saved.filters).toEqual({ date_from: '2026-02-01T18:00:00Z', date_to: '2026-02-01T09:00:00Z' });
  });
});

