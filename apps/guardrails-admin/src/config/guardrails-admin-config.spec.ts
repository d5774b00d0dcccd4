import { ConfigService } from '@nestjs/config';
import { DEFAULT_SETTINGS } from '@platform/guardrails';
import { GuardrailsAdminConfig } from './guardrails-admin-config';

describe('GuardrailsAdminConfig', () => {
  it('gives every setting typed and defaulted once, by the env class', () => {
    const config = GuardrailsAdminConfig.load({});
    expect(config.api).toEqual({ enabled: false, prefix: 'guardrails/api', middleware: 'jwt' });
    expect(config.get('GUARDRAILS_MATCH_TIMEOUT_MS')).toBe(50);
    expect(config.get('GUARDRAILS_HITL_REQUESTS_STORE')).toBe('null');
    expect(config.settingsDefaults()).toEqual(DEFAULT_SETTINGS);
    expect(config.tables()).toEqual({});
  });

  it('converts what the environment gives as text', () => {
    const config = GuardrailsAdminConfig.load({ GUARDRAILS_API_ENABLED: 'false', GUARDRAILS_APPROVAL_TTL_MINUTES: '0', GUARDRAILS_API_PREFIX: 'admin/ai' });
    expect(config.api).toEqual({ enabled: false, prefix: 'admin/ai', middleware: 'jwt' });
    expect(config.get('GUARDRAILS_APPROVAL_TTL_MINUTES')).toBe(0);
  });

  it('refuses a bad value naming the variable', () => {
    expect(() => GuardrailsAdminConfig.load({ GUARDRAILS_MATCH_TIMEOUT_MS: '0' })).toThrow(/GUARDRAILS_MATCH_TIMEOUT_MS/);
    expect(() => GuardrailsAdminConfig.load({ GUARDRAILS_TABLES: '{"audit":1}' }).tables()).toThrow('GUARDRAILS_TABLES.audit must be a string');
  });

  it('treats a blank DATABASE_NAME as unset, so the app keeps its own database', () => {
    const options = GuardrailsAdminConfig.load({ DATABASE_NAME: '', DATABASE_URL: 'postgres://db:5432/postgres' }).dataSourceOptions() as { url?: string };
    expect(new URL(options.url!).pathname).toBe('/guardrails');
  });

  it('reads the same values from the ConfigService a running app validated', () => {
    const config = GuardrailsAdminConfig.of(new ConfigService({ GUARDRAILS_API_ENABLED: true, GUARDRAILS_API_PREFIX: 'x/y', GUARDRAILS_API_MIDDLEWARE: 'jwt' }));
    expect(config.api).toEqual({ enabled: true, prefix: 'x/y', middleware: 'jwt' });
  });
});
