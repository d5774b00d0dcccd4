import { validateSettingsPatch } from '@platform/guardrails';
import { validate } from 'class-validator';
import { settingsRefusal, SettingsUpdateBody, settingsValidationFailed } from './settings-update-body';

const check = (settings: unknown) => validate(Object.assign(new SettingsUpdateBody(), { settings }));

describe('SettingsUpdateBody', () => {
  it('accepts valid values, and keys that are not overridable (the service drops those)', async () => {
    expect(await check({ 'modes.input_screen': 'monitor', 'retention.days': '30', 'audit.store': 'memory', 'no.such_key': 1 })).toEqual([]);
  });

  it.each([
    ['missing', undefined],
    ['empty', {}],
    ['a list', [{ 'retention.days': 7 }]],
    ['a string', 'retention.days=7'],
  ])('refuses settings that are %s under `settings`, in the registry’s words', async (_name, settings) => {
    const errors = await check(settings);
    expect(errors.map((e) => e.property)).toEqual(['settings']);
    expect(settingsRefusal(errors)).toEqual({
      error: 'validation_failed',
      message: 'some settings are invalid; nothing was stored',
      errors: { settings: ['must be a non-empty object of dotted setting keys'] },
    });
  });

  it('spells out every refused setting with all of the registry’s messages, in the order sent', async () => {
    const settings = {
      'retention.strategy': 'shred',
      'audit.store': 'memory',
      'hitl.destructive_tools': ['', 'refund', 3],
      'modes.hitl': 'enforce',
      'input_screen.patterns': { prototype: '/x/', 'a b': '/y/' },
    };
    const refusal = settingsRefusal(await check(settings));
    const registry = validateSettingsPatch({ settings });
    expect(registry.ok).toBe(false);
    expect(refusal).toEqual(settingsValidationFailed(registry.ok ? {} : registry.errors));
    expect(Object.keys(refusal.errors)).toEqual(['settings.retention.strategy', 'settings.hitl.destructive_tools', 'settings.input_screen.patterns']);
    expect(refusal.errors['settings.hitl.destructive_tools']).toEqual(['item 0 must be a non-empty string', 'item 2 must be a non-empty string']);
    expect(refusal.errors['settings.input_screen.patterns']).toHaveLength(2);
  });
});
