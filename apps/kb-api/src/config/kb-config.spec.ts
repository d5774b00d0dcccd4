import { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { KbConfig } from './kb-config';

describe('KbConfig', () => {
  const required = {
    CRYPTO_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
    SECRET_PEPPERS: `p1:${randomBytes(32).toString('base64')}`,
  };

  it('gives every setting typed and defaulted once, by the env class', () => {
    const config = KbConfig.load(required);
    expect(config.get('KB_INGEST_DEFAULT_PROJECT')).toBe('default');
    expect(config.get('KB_PROMOTION_ENABLED')).toBe(false);
    expect(config.get('KB_PROMOTION_APPROVAL_TTL_MIN')).toBe(60 * 24);
    expect(config.get('KB_MAIL_SMTP_URL')).toBeUndefined();
    expect(config.appUrl).toBe('http://127.0.0.1:8080');
  });

  it('converts what the environment gives as text', () => {
    const config = KbConfig.load({ ...required, KB_PROMOTION_ENABLED: 'true', KB_WORKER_CONCURRENCY: '8', KB_APP_URL: 'https://kb.example.com//' });
    expect(config.get('KB_PROMOTION_ENABLED')).toBe(true);
    expect(config.get('KB_WORKER_CONCURRENCY')).toBe(8);
    expect(config.appUrl).toBe('https://kb.example.com');
  });

  it('refuses a bad value naming the variable', () => {
    expect(() => KbConfig.load({ ...required, KB_SESSION_TTL_MIN: '1' })).toThrow(/KB_SESSION_TTL_MIN/);
  });

  it('picks a group of settings for a component built from a plain object', () => {
    expect(KbConfig.load({ ...required, KB_STORAGE_PATH: '/srv/kb' }).pick(['KB_STORAGE_DRIVER', 'KB_STORAGE_PATH'])).toEqual({ KB_STORAGE_DRIVER: 'local', KB_STORAGE_PATH: '/srv/kb' });
  });

  it("opens kb-api's own database unless DATABASE_NAME names another", () => {
    const url = (raw: Record<string, string>) => new URL((KbConfig.load({ ...required, DATABASE_URL: 'postgres://db:5432/postgres', ...raw }).dataSourceOptions() as { url: string }).url).pathname;
    expect(url({})).toBe('/kb');
    expect(url({ DATABASE_NAME: 'kb_other' })).toBe('/kb_other');
  });

  it('reads the same values from the ConfigService a running app validated', () => {
    const config = KbConfig.of(new ConfigService({ KB_PROMOTION_ENABLED: true, KB_APP_URL: 'http://kb.internal/' }));
    expect(config.get('KB_PROMOTION_ENABLED')).toBe(true);
    expect(config.appUrl).toBe('http://kb.internal');
  });

  it('reads a number needed before boot leniently, falling back to the env class default', () => {
    expect(KbConfig.numberBeforeBoot('KB_WORKER_LOCK_MS', {})).toBe(30_000);
    expect(KbConfig.numberBeforeBoot('KB_WORKER_LOCK_MS', { KB_WORKER_LOCK_MS: 'soon' })).toBe(30_000);
    expect(KbConfig.numberBeforeBoot('KB_WORKER_CONCURRENCY', { KB_WORKER_CONCURRENCY: '2' })).toBe(2);
  });
});
