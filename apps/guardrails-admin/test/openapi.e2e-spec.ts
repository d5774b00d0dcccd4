import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { GuardrailsApiController } from '../src/app/api/guardrails-api.controller';
import { GUARDRAILS_OPENAPI } from '../src/app/api/openapi';
import { GuardrailsOpenApiController } from '../src/app/api/openapi.controller';
import { startGuardrailsAdminWithIssuer } from './guardrails-test-env';

/** Every (method, path) the controllers declare, relative to api.prefix. */
function declaredRoutes(): string[] {
  const routes: string[] = [];
  for (const controller of [GuardrailsApiController, GuardrailsOpenApiController]) {
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as unknown as Record<string, object>)[name];
      const path = Reflect.getMetadata(PATH_METADATA, handler);
      if (path === undefined || name === 'constructor') continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase();
      routes.push(`${method} /${String(path).replace(/:([a-z_]+)/g, '{$1}')}`);
    }
  }
  return routes.sort();
}

describe('guardrails-admin OpenAPI document', () => {
  it('documents exactly the routes the controllers declare', () => {
    const documented = Object.entries(GUARDRAILS_OPENAPI.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(declaredRoutes());
  });

  it('is committed unchanged at docs/api/guardrails-admin.openapi.json (npm run openapi)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../docs/api/guardrails-admin.openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(GUARDRAILS_OPENAPI)));
  });

  it('is served under the API prefix without a token', async () => {
    const { svc, stop } = await startGuardrailsAdminWithIssuer({ GUARDRAILS_API_ENABLED: 'true' });
    try {
      const r = await fetch(`${svc.url}/guardrails/api/openapi.json`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { openapi: string }).openapi).toBe('3.1.0');
    } finally {
      await stop();
    }
  });
});
