import type { Express, RequestHandler } from 'express';

const PARSER_NAMES = { json: 'jsonParser', urlencoded: 'urlencodedParser' } as const;

interface Layer {
  name?: string;
  handle?: RequestHandler;
}

/**
 * The body parser the app itself registered (Nest's default, or the one startHttpApp configured
 * with the app's size limit), so a lean route parses, limits and fails exactly as the Nest route
 * does. Throws when the app has none: a lean route must not silently parse differently.
 */
export function appBodyParser(app: Express, type: keyof typeof PARSER_NAMES): RequestHandler {
  const stack = ((app as unknown as { router?: { stack?: Layer[] } }).router?.stack ?? []) as Layer[];
  const layer = stack.find((l) => l.name === PARSER_NAMES[type] && typeof l.handle === 'function');
  if (!layer?.handle) throw new Error(`the app registers no ${type} body parser`);
  return layer.handle;
}
