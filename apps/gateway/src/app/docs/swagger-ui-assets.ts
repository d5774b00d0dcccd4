import { join } from 'node:path';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

/** The files of the installed swagger-ui-dist package the reference page loads; nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The file and content type of a Swagger UI asset, or undefined for any other name. */
export function swaggerUiAsset(name: string): { file: string; type: string } | undefined {
  const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  return type ? { file: join(getAbsoluteFSPath(), name), type } : undefined;
}
