import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

export class EnvValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'EnvValidationError';
  }
}

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((msg) => `${e.property}: ${msg} (got ${JSON.stringify(e.value)})`),
  );
}

/**
 * Turns raw env into a typed, validated instance of `envClass`, or throws an error that names
 * every offending variable. Pass it to ConfigModule.forRoot({ validate }) so a bad value stops
 * the app at boot instead of surfacing as a 500 later.
 */
export function validateEnv<T extends object>(
  envClass: new () => T,
): (raw: Record<string, unknown>) => T {
  return (raw) => {
    // `FOO=` in an env file or manifest means "not set": the default applies, not an empty value.
    const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== ''));
    const instance = plainToInstance(envClass, given, { enableImplicitConversion: true });
    const errors = validateSync(instance, { skipMissingProperties: false, forbidUnknownValues: false });
    if (errors.length > 0) throw new EnvValidationError(describe(errors));
    return instance;
  };
}

/** Reads and validates env outside Nest (CLI tasks, workers' early setup). */
export function loadEnv<T extends object>(envClass: new () => T, raw: NodeJS.ProcessEnv = process.env): T {
  return validateEnv(envClass)(raw as Record<string, unknown>);
}
