import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { KbAdminInsightModule } from '../src/app/admin-insight/admin-insight.module';
import { KbAdminKnowledgeModule } from '../src/app/admin-knowledge/admin-knowledge.module';
import { KbAdminOperationsModule } from '../src/app/admin-operations/admin-operations.module';
import { KbMcpModule } from '../src/app/mcp/mcp.module';
import { KbWidgetModule } from '../src/app/widget/widget.module';
import { MembershipsController } from '../src/app/admin/memberships/memberships.controller';
import { RolesController } from '../src/app/admin/roles/roles.controller';
import { AdminUsersController } from '../src/app/admin/users/admin-users.controller';
import { AuthController } from '../src/app/auth/auth.controller';
import { KB_OPENAPI } from '../src/app/openapi';
import { NotificationsController } from '../src/app/notifications/notifications.controller';
import { KbOpenApiController } from '../src/app/openapi.controller';
import { PromotionController } from '../src/app/promotion/promotion.controller';
import { TenantsAdminController } from '../src/app/system-admin/tenants-admin.controller';
import { startKb } from './kb-test-env';

/** Every controller a module declares (a module adding a controller must document it). */
const controllersOf = (...modules: Type<unknown>[]): Type<unknown>[] =>
  modules.flatMap((m) => (Reflect.getMetadata('controllers', m) as Type<unknown>[] | undefined) ?? []);

/** The controllers the document covers: authentication, the accounts admin surfaces, system-admin, promotion, notifications, the widget, MCP and the admin areas. */
const DOCUMENTED = [
  AuthController,
  AdminUsersController,
  RolesController,
  MembershipsController,
  TenantsAdminController,
  KbOpenApiController,
  PromotionController,
  NotificationsController,
  ...controllersOf(KbAdminKnowledgeModule, KbAdminInsightModule, KbAdminOperationsModule, KbWidgetModule, KbMcpModule),
];

const join2 = (a: string, b: string) =>
  `/${[a, b].filter((s) => s && s !== '/').join('/')}`.replace(/\/+/g, '/');

/** Every (method, path) the controllers declare, with :params written as {params}. */
function declaredRoutes(controllers: Type<unknown>[]): string[] {
  const routes: string[] = [];
  for (const controller of controllers) {
    const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      if (name === 'constructor') continue;
      const handler = (controller.prototype as Record<string, object>)[name];
      const path = Reflect.getMetadata(PATH_METADATA, handler);
      if (path === undefined) continue;
      const method =
        RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase();
      routes.push(`${method} ${join2(prefix, String(path)).replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    }
  }
  return routes.sort();
}

describe('kb-api OpenAPI document', () => {
  it('documents exactly the routes of the covered controllers', () => {
    const documented = Object.entries(KB_OPENAPI.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect(documented.sort()).toEqual(declaredRoutes(DOCUMENTED));
  });

  it('declares every path parameter it uses', () => {
    for (const [path, ops] of Object.entries(KB_OPENAPI.paths)) {
      const inPath = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(
        ops as Record<string, { parameters?: Array<{ in: string; name: string }> }>,
      )) {
        const declared = (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort();
        expect([method, path, declared]).toEqual([method, path, inPath]);
      }
    }
  });

  it('is committed unchanged at docs/api/kb-api.openapi.json (npm run openapi)', () => {
    const committed = JSON.parse(
      readFileSync(join(__dirname, '../../../docs/api/kb-api.openapi.json'), 'utf8'),
    );
    expect(committed).toEqual(JSON.parse(JSON.stringify(KB_OPENAPI)));
  });

  it('is served at /api/kb/openapi.json without authentication', async () => {
    const { svc, stop } = await startKb();
    try {
      const r = await fetch(`${svc.url}/api/kb/openapi.json`);
      expect(r.status).toBe(200);
      const doc = (await r.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toContain('/api/admin/users/{user}/memberships');
    } finally {
      await stop();
    }
  });
});
