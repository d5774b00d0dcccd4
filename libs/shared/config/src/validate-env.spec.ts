import { IsInt, Min } from 'class-validator';
import { DataServiceEnv } from './base-env';
import { EnvValidationError, loadEnv } from './validate-env';

class SampleEnv extends DataServiceEnv {
  @IsInt()
  @Min(1)
  WORKERS: number = 2;
}

describe('validateEnv', () => {
  it('applies defaults and converts strings to numbers and booleans', () => {
    const env = loadEnv(SampleEnv, { PORT: '4100', LOG_PRETTY: 'true', WORKERS: '3' });
    expect(env.PORT).toBe(4100);
    expect(env.LOG_PRETTY).toBe(true);
    expect(env.WORKERS).toBe(3);
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('names every bad variable in one error', () => {
    let caught: unknown;
    try {
      loadEnv(SampleEnv, { PORT: '99999', LOG_LEVEL: 'loud', WORKERS: '0', DATABASE_URL: 'not a url' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EnvValidationError);
    const message = (caught as Error).message;
    for (const name of ['PORT', 'LOG_LEVEL', 'WORKERS', 'DATABASE_URL']) expect(message).toContain(name);
  });

  it('treats an empty value as unset, so the default applies', () => {
    const env = loadEnv(SampleEnv, { PORT: '', WORKERS: '' });
    expect(env.PORT).toBe(3000);
    expect(env.WORKERS).toBe(2);
  });

  it('refuses a boolean it cannot read', () => {
    expect(() => loadEnv(SampleEnv, { LOG_PRETTY: 'maybe' })).toThrow(/LOG_PRETTY/);
  });
});
