import type { ExceptionFilter, PipeTransform } from '@nestjs/common';
import type { RequestHandler } from 'express';

/**
 * What the platform installed on an app outside the DI container, recorded when it installs it so
 * lean routes apply the same (nothing is read back from Express or Nest):
 * - `prelude`: the middleware every request passes before routing (edge hygiene and the body
 *   parsers), in order;
 * - `pipes` and `filters`: what app.useGlobalPipes / app.useGlobalFilters were given.
 */
export interface LeanAppSetup {
  prelude?: RequestHandler[];
  pipes?: PipeTransform[];
  filters?: ExceptionFilter[];
}

const setups = new WeakMap<object, LeanAppSetup>();

/** Records part of an app's setup; `app` is its Express instance. */
export function recordLeanAppSetup(app: object, part: LeanAppSetup): void {
  setups.set(app, { ...setups.get(app), ...part });
}

export function leanAppSetupOf(app: object): LeanAppSetup | undefined {
  return setups.get(app);
}
