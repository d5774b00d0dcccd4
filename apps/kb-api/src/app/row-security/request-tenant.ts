import type { McpRequest } from '../mcp/server/mcp-caller';
import type { WidgetRequest } from '../widget/widget-key.guard';

/**
 * The tenant a request acts in, as its guard resolved it: an MCP token's or a widget key's tenant,
 * else the signed-in caller's active tenant. Undefined for public routes, before authentication,
 * and for platform-wide routes (they read across tenants by design).
 */
export function requestTenantOf(req: McpRequest & WidgetRequest, platformWide: boolean): string | undefined {
  if (platformWide) return undefined;
  return req.mcpCaller?.tenantId ?? req.widget?.key.tenant_id ?? req.kbPrincipal?.tenantId;
}
