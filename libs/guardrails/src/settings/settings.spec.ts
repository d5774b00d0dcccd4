import { INFRASTRUCTURE_SETTING_KEYS, SETTING_VALIDATORS, SETTINGS_ALLOW_LIST } from './allow-list';
import { DEFAULT_SETTINGS } from './defaults';
import { diffSettings, effectiveSettings, nestSettings, planSettingsUpdate } from './effective-settings';
import { controlStates, postureOf } from './posture';
import { validateSettingsPatch, validStoredOverrides } from './settings-patch';

const patch = (settings: Record<string, unknown>) => validateSettingsPatch({ settings });
const errorsOf = (r: ReturnType<typeof validateSettingsPatch>) => (r.ok ? {} : r.errors);

describe('allow-list', () => {
  it('is exactly the 32 keys of the spec table plus the v1.x classifier and indirect-injection keys, with the infrastructure keys outside it', () => {
    expect([...SETTINGS_ALLOW_LIST].sort()).toEqual(
      [
        'tool_firewall.enabled', 'tool_firewall.reject_unknown_arguments', 'input_screen.enabled', 'output_handler.enabled',
        'output_handler.sanitize_html', 'output_handler.neutralize_markdown', 'output_handler.redact_pii', 'hitl.enabled',
        'normalization.enabled', 'normalization.nfkc', 'normalization.strip_zero_width', 'normalization.casefold',
        'normalization.decode_base64_blobs', 'normalization.fold_confusables', 'tool_authorization.enabled',
        'tool_firewall.owner_keys', 'hitl.destructive_tools', 'input_screen.patterns', 'input_screen.refusal_message',
        'normalization.max_prompt_length', 'retention.days', 'retention.strategy', 'output_handler.html_mode',
        'hitl.fallback', 'modes.tool_firewall', 'modes.input_screen', 'modes.output_handler', 'modes.hitl',
        'pattern_safety.on_match_error', 'tool_authorization.owner_key_depth', 'tool_authorization.destructive_match',
        'audit_hygiene.prompt_storage', 'input_screen.classifier_enabled', 'input_screen.classifier_threshold',
        'indirect_injection.enabled', 'indirect_injection.flagged_content',
      ].sort(),
    );
    expect(INFRASTRUCTURE_SETTING_KEYS).toHaveLength(18);
    expect(INFRASTRUCTURE_SETTING_KEYS).toContain('hitl_requests.connection');
    expect(INFRASTRUCTURE_SETTING_KEYS.filter((k) => (SETTINGS_ALLOW_LIST as string[]).includes(k))).toEqual([]);
  });

  it('has defaults that pass their own validators', () => {
    for (const key of SETTINGS_ALLOW_LIST) {
      expect(SETTING_VALIDATORS[key](DEFAULT_SETTINGS[key])).toEqual({ ok: true, value: DEFAULT_SETTINGS[key] });
    }
  });
});

describe('setting validators', () => {
  it.each([
    [0, 0], [1, 1], [0.85, 0.85], ['0.5', 0.5], ['1', 1], ['0', 0], ['0.000001', 0.000001],
  ])('accepts classifier threshold %j as %j', (raw, value) => {
    expect(SETTING_VALIDATORS['input_screen.classifier_threshold'](raw)).toEqual({ ok: true, value });
  });

  it.each([[-0.01], [1.01], ['1.5'], [''], [' 0.5'], ['.5'], ['5e-1'], ['-0'], [true], [null], [Number.NaN], [Infinity], [[0.5]], [{}]])(
    'refuses classifier threshold %j',
    (raw) => {
      expect(SETTING_VALIDATORS['input_screen.classifier_threshold'](raw)).toEqual({ ok: false, errors: ['must be a number from 0 to 1'] });
    },
  );

  it('refuses a lone surrogate in any string of any value, pattern map keys included, in a body and in a stored row', () => {
    const illFormed = {
      'input_screen.patterns': { x: '/\ud800/' },
      'input_screen.refusal_message': 'no \udc00',
      'hitl.destructive_tools': ['refund', '\ud800'],
      'retention.strategy': 'keep\ud800',
    };
    const utf8 = ['must be valid UTF-8 text'];
    expect(errorsOf(patch(illFormed))).toEqual(Object.fromEntries(Object.keys(illFormed).map((k) => [k, utf8])));
    expect(errorsOf(patch({ 'input_screen.patterns': { ['x\udc00']: '/x/' } }))).toEqual({ 'input_screen.patterns': utf8 });
    expect(validStoredOverrides({ ...illFormed, 'retention.days': 7 })).toEqual({ overrides: { 'retention.days': 7 }, rejected: Object.keys(illFormed) });
    expect(patch({ 'input_screen.patterns': { smile: '/\u{1F600}/u' } })).toMatchObject({ ok: true });
  });

  it('refuses, in a PUT only, whole-number rule ids, which an object would list first whatever the order sent', () => {
    expect(errorsOf(patch({ 'input_screen.patterns': JSON.parse('{"b":"/b/","7":"/7/","0":"/0/"}') }))).toEqual({
      'input_screen.patterns': [
        'rule id "0" must not be a whole number: the rules would not run in the order sent',
        'rule id "7" must not be a whole number: the rules would not run in the order sent',
      ],
    });
    expect(patch({ 'input_screen.patterns': { b: '/b/', '007': '/7/', '4294967295': '/x/', 'r-1': '/1/' } })).toMatchObject({ ok: true });
    expect(validStoredOverrides({ 'input_screen.patterns': { '7': '/7/' } })).toEqual({ overrides: { 'input_screen.patterns': { '7': '/7/' } }, rejected: [] });
  });

  it('validates the classifier keys in a PUT body like every other key', () => {
    expect(patch({ 'input_screen.classifier_enabled': 'false', 'input_screen.classifier_threshold': 0.7 })).toMatchObject({
      ok: true,
      changes: { 'input_screen.classifier_enabled': false, 'input_screen.classifier_threshold': 0.7 },
    });
    expect(errorsOf(patch({ 'input_screen.classifier_enabled': 'yes', 'input_screen.classifier_threshold': 2 }))).toEqual({
      'input_screen.classifier_enabled': ['must be a boolean: true, false, 1 or 0'],
      'input_screen.classifier_threshold': ['must be a number from 0 to 1'],
    });
  });

  it('validates the indirect-injection keys strictly: a boolean and exclude or quote', () => {
    expect(patch({ 'indirect_injection.enabled': '0', 'indirect_injection.flagged_content': 'quote' })).toMatchObject({
      ok: true,
      changes: { 'indirect_injection.enabled': false, 'indirect_injection.flagged_content': 'quote' },
    });
    const errors = errorsOf(patch({ 'indirect_injection.enabled': 'no', 'indirect_injection.flagged_content': 'drop' }));
    expect(Object.keys(errors).sort()).toEqual(['indirect_injection.enabled', 'indirect_injection.flagged_content']);
    expect(DEFAULT_SETTINGS['indirect_injection.flagged_content']).toBe('exclude');
  });

  it.each([
    [true, true], [false, false], [1, true], [0, false], ['true', true], ['FALSE', false], ['1', true], ['0', false],
  ])('accepts boolean %j as %j', (raw, value) => {
    expect(patch({ 'hitl.enabled': raw })).toMatchObject({ ok: true, changes: { 'hitl.enabled': value } });
  });

  it.each([[''], ['yes'], [2], [null], [[]], ['on']])('refuses boolean %j', (raw) => {
    expect(errorsOf(patch({ 'hitl.enabled': raw }))).toHaveProperty(['hitl.enabled']);
  });

  it('checks integers: > 0 for the prompt length, >= 0 for retention days, digits-only strings', () => {
    expect(patch({ 'normalization.max_prompt_length': '1200', 'retention.days': 0 })).toMatchObject({
      ok: true,
      changes: { 'normalization.max_prompt_length': 1200, 'retention.days': 0 },
    });
    for (const raw of [0, -1, 1.5, '1e3', 'abc', '', null]) {
      expect(errorsOf(patch({ 'normalization.max_prompt_length': raw }))).toHaveProperty(['normalization.max_prompt_length']);
    }
    expect(errorsOf(patch({ 'retention.days': -1 }))).toHaveProperty(['retention.days']);
  });

  it('takes lists of non-empty strings, [] included', () => {
    expect(patch({ 'hitl.destructive_tools': [] })).toMatchObject({ ok: true, changes: { 'hitl.destructive_tools': [] } });
    for (const raw of [['ok', ''], ['  '], 'delete', [1], null]) {
      expect(errorsOf(patch({ 'tool_firewall.owner_keys': raw }))).toHaveProperty(['tool_firewall.owner_keys']);
    }
  });

  it('limits the refusal message to 2000 characters, counted as code points, and valid UTF-8', () => {
    expect(patch({ 'input_screen.refusal_message': '😀'.repeat(2000) }).ok).toBe(true);
    expect(errorsOf(patch({ 'input_screen.refusal_message': 'x'.repeat(2001) }))).toHaveProperty(['input_screen.refusal_message']);
    expect(errorsOf(patch({ 'input_screen.refusal_message': 'bad \uD800 text' }))).toHaveProperty(['input_screen.refusal_message']);
  });

  it.each([
    ['retention.strategy', 'shred'],
    ['output_handler.html_mode', 'strip'],
    ['hitl.fallback', 'allow'],
    ['modes.input_screen', 'loud'],
    ['pattern_safety.on_match_error', 'ignore'],
    ['tool_authorization.owner_key_depth', 'deep'],
    ['tool_authorization.destructive_match', 'regex'],
    ['audit_hygiene.prompt_storage', 'encrypt'],
  ])('refuses %s = %j', (key, raw) => {
    expect(errorsOf(patch({ [key]: raw }))).toHaveProperty([key]);
  });

  it('compiles every pattern, names each bad rule, and accepts {} to clear the rules', () => {
    expect(patch({ 'input_screen.patterns': { a: '/ignore\\s+this/iu', b: '#x/y#' } }).ok).toBe(true);
    expect(patch({ 'input_screen.patterns': {} })).toMatchObject({ ok: true, changes: { 'input_screen.patterns': {} } });
    const errors = errorsOf(patch({ 'input_screen.patterns': { good: '/a/i', bad: '/a++/', worse: '/x/U', 'bad id!': '/x/', too_long: '/y/', n: 5 } }));
    const messages = errors['input_screen.patterns'].join('\n');
    expect(messages).toMatch(/rule "bad" does not compile/);
    expect(messages).toMatch(/rule "worse" uses modifier "U"/);
    expect(messages).toMatch(/rule id "bad id!"/);
    expect(messages).toMatch(/rule id "too_long"/);
    expect(messages).toMatch(/rule "n" must be a string/);
    expect(messages).not.toMatch(/"good"/);
    expect(errorsOf(patch({ 'input_screen.patterns': ['/a/'] }))).toHaveProperty(['input_screen.patterns']);
  });
});

describe('validateSettingsPatch', () => {
  it('refuses a body without a non-empty settings object', () => {
    for (const body of [undefined, null, {}, { settings: {} }, { settings: [] }, { settings: 'x' }, []]) {
      expect(validateSettingsPatch(body)).toEqual({ ok: false, errors: { settings: [expect.any(String)] } });
    }
  });

  it('drops keys outside the allow-list, infrastructure keys included, and coerces the rest', () => {
    const r = patch({ 'hitl.enabled': '1', 'retention.days': '30', 'audit.store': 'database', 'settings.connection': 'x', bogus: 1 });
    expect(r).toEqual({ ok: true, changes: { 'hitl.enabled': true, 'retention.days': 30 }, dropped: ['audit.store', 'settings.connection', 'bogus'] });
  });

  it('refuses the whole body with every error keyed by its setting', () => {
    const r = patch({ 'hitl.enabled': 'yes', 'modes.hitl': 'monitor', 'retention.days': -1, 'hitl.fallback': 'x' });
    expect(r.ok).toBe(false);
    expect(Object.keys(errorsOf(r)).sort()).toEqual(['hitl.enabled', 'hitl.fallback', 'retention.days']);
  });
});

describe('effective settings', () => {
  it('overlays valid stored overrides on the defaults and ignores invalid or unknown ones', () => {
    const s = effectiveSettings(DEFAULT_SETTINGS, { 'hitl.enabled': true, 'retention.days': -5, 'audit.table': 'x', 'modes.hitl': 'monitor' });
    expect(s['hitl.enabled']).toBe(true);
    expect(s['modes.hitl']).toBe('monitor');
    expect(s['retention.days']).toBe(DEFAULT_SETTINGS['retention.days']);
    expect(s).not.toHaveProperty(['audit.table']);
  });

  it('nests dotted keys for the GET view', () => {
    const nested = nestSettings(DEFAULT_SETTINGS);
    expect(nested['normalization']['max_prompt_length']).toBe(50000);
    expect(nested['modes']).toEqual({ tool_firewall: 'enforce', input_screen: 'enforce', output_handler: 'enforce', hitl: 'enforce' });
    expect(Object.values(nested).reduce((n, group) => n + Object.keys(group).length, 0)).toBe(36);
  });

  it('diffs by value, and pattern order is part of the value', () => {
    const before = effectiveSettings(DEFAULT_SETTINGS, { 'input_screen.patterns': { a: '/a/', b: '/b/' } });
    const after = effectiveSettings(DEFAULT_SETTINGS, { 'input_screen.patterns': { b: '/b/', a: '/a/' } });
    expect(diffSettings(before, after)).toEqual([
      { key: 'input_screen.patterns', old_value: { a: '/a/', b: '/b/' }, new_value: { b: '/b/', a: '/a/' } },
    ]);
    expect(diffSettings(before, { ...before })).toEqual([]);
  });

  it('plans an update: only effective changes are stored and reported; a no-op changes nothing', () => {
    const current = { 'hitl.enabled': true };
    const plan = planSettingsUpdate({ settings: { 'hitl.enabled': 'true', 'retention.days': 30, 'modes.hitl': 'enforce', 'audit.store': 'x' } }, current);
    expect(plan).toMatchObject({
      ok: true,
      overrides: { 'hitl.enabled': true, 'retention.days': 30 },
      changes: [{ key: 'retention.days', old_value: 365, new_value: 30 }],
      dropped: ['audit.store'],
    });
    expect(planSettingsUpdate({ settings: { 'hitl.enabled': 1 } }, current)).toMatchObject({ ok: true, changes: [], overrides: current });
    expect(planSettingsUpdate({ settings: { 'hitl.enabled': 'maybe' } }, current)).toMatchObject({ ok: false });
  });
});

describe('posture', () => {
  it('is Engaged when enforcing and enabled, Observing in monitor mode, Disabled otherwise', () => {
    expect(postureOf(true, 'enforce')).toBe('Engaged');
    expect(postureOf(true, 'monitor')).toBe('Observing');
    expect(postureOf(true, 'off')).toBe('Disabled');
    expect(postureOf(false, 'monitor')).toBe('Disabled');
  });

  it('lists the four controls in overview order, forcing mode off when disabled', () => {
    const states = controlStates({ ...DEFAULT_SETTINGS, 'modes.output_handler': 'monitor' });
    expect(states.map((c) => [c.key, c.mode, c.posture])).toEqual([
      ['tool_firewall', 'enforce', 'Engaged'],
      ['input_screen', 'enforce', 'Engaged'],
      ['output_handler', 'monitor', 'Observing'],
      ['hitl', 'off', 'Disabled'],
    ]);
  });
});
