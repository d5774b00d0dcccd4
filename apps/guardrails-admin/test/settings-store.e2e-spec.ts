import { RunningService, TestJwksIssuer, testRedisPrefix } from '@platform/testing';
import { DataSource } from 'typeorm';
import { startGuardrailsAdminWithIssuer } from './guardrails-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * PUT /settings against the real store: what a malformed value answers, what order a pattern map
 * keeps, and which change records a save appends (alone and under concurrent saves).
 */
describe('guardrails settings store', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;
  let stop: () => Promise<void>;
  let admin: string;
  let dataSource: DataSource;

  const call = async (method: string, path: string, options: { body?: unknown; raw?: string } = {}) => {
    const r = await fetch(`${svc.url}/guardrails/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    return { status: r.status, body: JSON.parse(await r.text()) as Json };
  };
  const put = (settings: Record<string, unknown>) => call('PUT', '/settings', { body: { settings } });

  /** The stored overrides and every change record, oldest first. */
  const stored = async () => ({
    overrides: (await dataSource.query('SELECT key, value::text AS value FROM guardrails_settings ORDER BY key')) as Json[],
    changes: (await dataSource.query('SELECT key, old_value, new_value FROM guardrails_settings_changes ORDER BY id')) as Json[],
  });

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startGuardrailsAdminWithIssuer({
      GUARDRAILS_API_ENABLED: 'true',
      GUARDRAILS_SETTINGS_CHANNEL: `${testRedisPrefix('gr-settings')}:guardrails.SettingsChanged`,
      GUARDRAILS_QUEUE_PREFIX: testRedisPrefix('gr-settings-queue'),
    }));
    admin = await issuer.mint({ scope: 'guardrails:admin', sub: 'admin-1' });
    dataSource = await new DataSource({ type: 'postgres', url: svc.db!.url }).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await stop?.();
  });

  beforeEach(async () => {
    await dataSource.query('TRUNCATE guardrails_settings, guardrails_settings_changes RESTART IDENTITY');
  });

  describe('a lone UTF-16 surrogate in any string of a value', () => {
    it.each([
      ['a pattern', '{"settings":{"input_screen.patterns":{"x":"/\\ud800/"}}}', 'input_screen.patterns.x'],
      ['a rule id', '{"settings":{"input_screen.patterns":{"x\\udc00":"/x/"}}}', 'input_screen.patterns.x\uFFFD'],
      ['the refusal message', '{"settings":{"input_screen.refusal_message":"no \\ud800"}}', 'input_screen.refusal_message'],
      ['a destructive tool', '{"settings":{"hitl.destructive_tools":["refund","\\udbff"]}}', 'hitl.destructive_tools.1'],
      ['an owner key', '{"settings":{"tool_firewall.owner_keys":["user_id\\ud83d"]}}', 'tool_firewall.owner_keys.0'],
      ['an enum', '{"settings":{"retention.strategy":"purge\\ud800"}}', 'retention.strategy'],
      ['a number as a string', '{"settings":{"retention.days":"7\\udc00"}}', 'retention.days'],
    ])('in %s refuses the whole request 422 at the edge, naming the field, and stores nothing', async (_name, raw, field) => {
      const before = await stored();
      const r = await call('PUT', '/settings', { raw: raw.replace('{"settings":{', '{"settings":{"modes.hitl":"monitor",') });
      expect(r.status).toBe(422);
      // The platform's edge refuses it for every route before the settings registry sees it (the
      // registry's own check, "must be valid UTF-8 text", serves the library's other callers).
      expect(r.body).toMatchObject({ schema: 'guardrails.api.v1.error', data: { error: 'validation_failed', errors: { [`body.settings.${field}`]: [expect.stringContaining('valid Unicode')] } } });
      expect(await stored()).toEqual(before);
    });

    it('still accepts a surrogate pair (an astral character) in a pattern', async () => {
      const r = await put({ 'input_screen.patterns': { emoji: '/\u{1F600}/u' } });
      expect(r.status).toBe(200);
      expect(r.body.data.settings.input_screen.patterns).toEqual({ emoji: '/\u{1F600}/u' });
    });
  });

  describe('a pattern map', () => {
    // Sent in an order jsonb would not keep (it sorts shorter keys first): "a" would run first.
    const patterns = { zz_first: '/alpha/', mid_rule: '/beta/', a: '/gamma/' };
    const sent = Object.entries(patterns);

    it('keeps the order sent: in the answer, in GET, in the store, in the change log and in which rule reports first', async () => {
      const r = await put({ 'input_screen.patterns': patterns });
      expect(r.status).toBe(200);
      expect(Object.entries(r.body.data.settings.input_screen.patterns)).toEqual(sent);
      expect(Object.entries((await call('GET', '/settings')).body.data.settings.input_screen.patterns)).toEqual(sent);
      expect((await stored()).overrides).toEqual([{ key: 'input_screen.patterns', value: JSON.stringify(patterns) }]);
      const [change] = (await call('GET', '/settings/changes?limit=1')).body.data.changes;
      expect(Object.entries(change.new_value)).toEqual(sent);

      // This host applies the answer at once and then reloads from the store on its own
      // SettingsChanged: the first matching rule in the order sent must report before and after.
      const version = (await call('GET', '/overview')).body.data.ruleset_version;
      for (let i = 0; i < 8; i++) {
        const screened = await call('POST', '/try/screen', { body: { prompt: 'gamma beta alpha' } });
        expect(screened.body.data).toMatchObject({ blocked: true, rule_id: 'zz_first' });
        await sleep(150);
      }
      expect((await call('GET', '/overview')).body.data.ruleset_version).toBe(version);
    });

    it('refuses a whole-number rule id (an object would list it first) 422 and stores nothing', async () => {
      const r = await call('PUT', '/settings', { raw: '{"settings":{"input_screen.patterns":{"b":"/b/","7":"/seven/"}}}' });
      expect(r.status).toBe(422);
      expect(r.body.data.errors).toEqual({
        'settings.input_screen.patterns': ['rule id "7" must not be a whole number: the rules would not run in the order sent'],
      });
      expect(await stored()).toEqual({ overrides: [], changes: [] });
      expect((await put({ 'input_screen.patterns': { rule_7: '/seven/', '007': '/bond/' } })).status).toBe(200);
    });
  });

  describe('change records', () => {
    it('are appended only for an effective change: the same pattern map twice records once, a new order records again', async () => {
      const patterns = { zz_first: '/alpha/', a: '/gamma/' };
      expect((await put({ 'input_screen.patterns': patterns })).body.data.changed).toEqual(['input_screen.patterns']);
      const again = await put({ 'input_screen.patterns': { ...patterns } });
      expect(again.status).toBe(200);
      expect(again.body.data.changed).toEqual([]);
      expect((await stored()).changes).toHaveLength(1);

      const reordered = { a: '/gamma/', zz_first: '/alpha/' };
      expect((await put({ 'input_screen.patterns': reordered })).body.data.changed).toEqual(['input_screen.patterns']);
      const changes = (await stored()).changes;
      expect(changes).toHaveLength(2);
      expect(Object.keys(changes[1].old_value)).toEqual(['zz_first', 'a']);
      expect(Object.keys(changes[1].new_value)).toEqual(['a', 'zz_first']);
    });

    it('record one change for identical concurrent saves', async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, () => put({ 'retention.days': 200 })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(answers.flatMap((a) => a.body.data.changed)).toEqual(['retention.days']);
      expect((await stored()).changes).toEqual([{ key: 'retention.days', old_value: 365, new_value: 200 }]);
    });

    it('chain under concurrent saves: each old_value is the value the save replaced, the last new_value is what is stored', async () => {
      const days = Array.from({ length: 8 }, (_, i) => 101 + i);
      const answers = await Promise.all(days.map((d) => put({ 'retention.days': d })));
      expect(answers.map((a) => a.status)).toEqual(days.map(() => 200));
      const { changes } = await stored();
      expect(changes).toHaveLength(8);
      expect(changes[0].old_value).toBe(365);
      for (let i = 1; i < changes.length; i++) expect(changes[i].old_value).toBe(changes[i - 1].new_value);
      expect(changes.map((c) => c.new_value).sort()).toEqual(days);
      expect((await call('GET', '/settings')).body.data.settings.retention.days).toBe(changes[7].new_value);
    });
  });
});

