import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PipeTransform, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { RecordIdPipe } from './conversations/record-id';
import { SessionIdPipe } from './widget/session-id.pipe';

/**
 * Path parameters that name no bigserial row, each with what checks it instead. Anything not
 * listed must go through RecordIdPipe (or SessionIdPipe for widget sessions), so a new route with
 * a numeric id cannot forget the bound.
 */
const NOT_ROW_IDS: Record<string, string> = {
  'WorkflowsController.show.kind': 'a workflow kind, checked against the known kinds',
  'WorkflowsController.show.id': 'a row id or a promotion uuid depending on the kind; the service checks which',
  'FailedJobsController.retry.id': 'a BullMQ job id (text), looked up in Redis',
  'FailedJobsController.remove.id': 'a BullMQ job id (text), looked up in Redis',
  'ContentGapsController.resolve.id': 'a 32-hex question hash, checked by the service',
  'TagsController.rename.tag': 'a tag name (text)',
  'TagsController.remove.tag': 'a tag name (text)',
  'RolesController.update.role': 'a role name (text)',
  'McpServersController.show.server': 'an MCP server name (text)',
  'McpServersController.setTool.server': 'an MCP server name (text)',
  'McpServersController.setTool.tool': 'an MCP tool name (text)',
  'PromotionController.approve.approvalId': 'a uuid, checked by the service',
  'PromotionController.reject.approvalId': 'a uuid, checked by the service',
  'ToolApprovalsController.approve.token': 'a single-use approval token (base64url), checked by the service',
  'ToolApprovalsController.reject.token': 'a single-use approval token (base64url), checked by the service',
  'McpParkedCallsController.show.approvalId': 'a uuid, checked by the repository',
  'WidgetPublicController.parkedCall.approvalId': 'a uuid, checked by the repository',
  'TenantsAdminController.addAdmin.tenant': 'a tenant slug (text)',
  'TenantsAdminController.show.tenant': 'a tenant slug (text)',
  'TenantsAdminController.suspend.tenant': 'a tenant slug (text)',
  'TenantsAdminController.resume.tenant': 'a tenant slug (text)',
};

interface ParamArg {
  index: number;
  data?: unknown;
  pipes?: PipeTransform[];
}

type Ctor = { name: string; prototype: Record<string, unknown> };

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return controllerFiles(full);
    return e.name.endsWith('.controller.ts') ? [full] : [];
  });
}

/** Every path parameter of every kb-api route: `Controller.method.param` and its pipes. */
function pathParams(): { key: string; route: string; pipes: PipeTransform[] }[] {
  const found: { key: string; route: string; pipes: PipeTransform[] }[] = [];
  for (const file of controllerFiles(__dirname)) {
    for (const exported of Object.values(require(file) as Record<string, unknown>)) {
      if (typeof exported !== 'function' || Reflect.getMetadata(PATH_METADATA, exported) === undefined) continue;
      const ctor = exported as unknown as Ctor;
      for (const method of Object.getOwnPropertyNames(ctor.prototype)) {
        const handler = ctor.prototype[method];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctor, method) ?? {}) as Record<string, ParamArg>;
        const route = `${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number]} ${Reflect.getMetadata(PATH_METADATA, ctor)}/${Reflect.getMetadata(PATH_METADATA, handler)}`;
        for (const [key, arg] of Object.entries(args)) {
          if (Number(key.split(':')[0]) !== RouteParamtypes.PARAM) continue;
          found.push({ key: `${ctor.name}.${method}.${String(arg.data)}`, route, pipes: arg.pipes ?? [] });
        }
      }
    }
  }
  return found;
}

describe('kb-api path parameters', () => {
  const params = pathParams();

  it('finds the routes with numeric ids (the walk itself works)', () => {
    expect(params.length).toBeGreaterThan(60);
    expect(params.find((p) => p.key === 'ConnectorsController.show.id')?.pipes[0]).toBeInstanceOf(RecordIdPipe);
  });

  it('sends every row id through RecordIdPipe, unless it is listed as something else', () => {
    const unchecked = params
      .filter((p) => !(p.key in NOT_ROW_IDS))
      .filter((p) => !p.pipes.some((pipe) => pipe instanceof RecordIdPipe || pipe instanceof SessionIdPipe))
      .map((p) => `${p.key} (${p.route})`);
    expect(unchecked).toEqual([]);
  });

  it('lists only parameters that exist and take no row-id pipe', () => {
    const keys = new Map(params.map((p) => [p.key, p]));
    for (const key of Object.keys(NOT_ROW_IDS)) {
      expect(keys.has(key) ? key : `${key} (no such parameter)`).toBe(key);
      expect(keys.get(key)!.pipes.some((pipe) => pipe instanceof RecordIdPipe)).toBe(false);
    }
  });

  it.each(['0', '-1', '1e3', '01', 'abc', '1'.repeat(19), '99999999999999999999', '1 ', ''])('answers %j 404 before the database', (raw) => {
    expect(() => new RecordIdPipe('Thing').transform(raw)).toThrow('Thing not found.');
  });

  it.each(['1', '42', '9'.repeat(18)])('passes %s on', (raw) => {
    expect(new RecordIdPipe('Thing').transform(raw)).toBe(raw);
  });
});
