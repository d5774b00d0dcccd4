import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../admin/pagination';
import { KB_SERVER, MCP_CALLS_PER_MINUTE, MCP_SCOPES } from './mcp-scopes';
import { answer, dateTime, json, ref } from '../openapi-parts';

/** OpenAPI paths and schemas of KbMcpModule, merged into the kb-api document by ../openapi.ts. */
const nullableDate = { oneOf: [dateTime, { type: 'null' }] };
const nullableInt = { oneOf: [{ type: 'integer' }, { type: 'null' }] };
const pageOf = (item: string) => ({
  type: 'object',
  properties: {
    data: { type: 'array', items: ref(item) },
    current_page: { type: 'integer' },
    per_page: { type: 'integer' },
    total: { type: 'integer' },
    last_page: { type: 'integer' },
  },
});
const paging = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE } },
];
const coded = (description: string) => answer(description, ref('Error'));

const unauthenticated = answer('Guest `{message: "Unauthenticated."}`', ref('Message'));
const forbidden = answer('Not allowed by the gate `{message}`', ref('Message'));
const gated = { '401': unauthenticated, '403': forbidden };
const invalid = answer('Validation failed `{message, errors}` naming the field', ref('ValidationError'));
const idParam = { name: 'id', in: 'path', required: true, description: 'MCP token id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } };
const serverParam = { name: 'server', in: 'path', required: true, description: `MCP server name (\`${KB_SERVER.name}\`)`, schema: { type: 'string' } };
const toolParam = { name: 'tool', in: 'path', required: true, description: 'Tool name, e.g. kb-search', schema: { type: 'string' } };
const notAllowed = { '405': answer('The server is stateless: no stream, no session (`Allow: POST`)', ref('McpJsonRpcResponse')) };

export const MCP_PATHS: Record<string, object> = {
  '/mcp/kb': {
    post: {
      summary: `The ${KB_SERVER.name} ${KB_SERVER.version} MCP server: JSON-RPC over streamable HTTP (initialize, tools/list, tools/call)`,
      description: [
        'Stateless: no Mcp-Session-Id; send `Accept: application/json, text/event-stream`.',
        'Authentication: `Authorization: Bearer mcp_…` (a tenant MCP token; the caller acts in the token\'s tenant),',
        'an iam access token whose aud names OAUTH_RESOURCE or JWT_AUDIENCE (`Bearer`, or `DPoP` with a `DPoP` proof when the token is bound; the caller acts as the linked KB user in that user\'s tenant with the token\'s mcp:* scopes),',
        'or a personal access token / session, which may initialize and list tools only.',
        'Every tools/call needs a tenant MCP token or iam token carrying the tool\'s scope, passes the guardrails tool firewall and is audited.',
        'A 401, and a 403 mcp_scope_missing, carry `WWW-Authenticate: Bearer …, resource_metadata="…"` (plus a DPoP challenge).',
        `Throttle: ${MCP_CALLS_PER_MINUTE} requests a minute per token.`,
      ].join(' '),
      requestBody: { required: true, content: json({ oneOf: [ref('McpJsonRpcRequest'), { type: 'array', items: ref('McpJsonRpcRequest') }] }) },
      responses: {
        '200': answer('JSON-RPC result; a tool result is `{content:[{type:"text", text:"<JSON>"}], isError?}`', ref('McpJsonRpcResponse')),
        '202': { description: 'A notification (no id) was accepted' },
        '401': coded('`{message:"Unauthenticated."}` without a credential; `{error: mcp_token_required | mcp_token_invalid | invalid_token | invalid_dpop_proof, message}`'),
        '403': coded('`{error: mcp_token_revoked | mcp_token_expired | mcp_tenant_mismatch | identity_not_linked | tenant_suspended | csrf_token_mismatch, message}`, or `{error:"mcp_scope_missing", message, required_scope}`'),
        '422': coded('`{error:"tool_name_required", message}`: a tools/call without params.name'),
        '429': answer('Throttled `{message}` with Retry-After', ref('Message')),
      },
    },
    get: { summary: 'No server-to-client stream (stateless server)', responses: notAllowed },
    delete: { summary: 'No session to end (stateless server)', responses: notAllowed },
  },
  '/.well-known/oauth-protected-resource/mcp/kb': {
    get: {
      summary: 'RFC 9728 metadata of /mcp/kb: iam as authorization server, the MCP scopes, the resource identifier (OAUTH_RESOURCE); no token',
      responses: { '200': answer('Protected resource metadata; Cache-Control: public, max-age=300', ref('ProtectedResourceMetadata')) },
    },
  },
  '/api/admin/identity-links': {
    get: {
      summary: "The active tenant's explicit iam identity → KB user links, newest first (`can:manageMcpTools`)",
      responses: { '200': answer('Links', { type: 'object', properties: { data: { type: 'array', items: ref('IdentityLink') } } }), ...gated },
    },
    post: {
      summary: 'Links an iam identity (issuer + subject) to a user of the active tenant: its iam tokens act as that user at /mcp/kb (`can:manageMcpTools`)',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['subject', 'user_id'],
          properties: {
            subject: { type: 'string', minLength: 1, maxLength: 255, description: 'The `sub` of the iam tokens (the iam user id)' },
            user_id: { type: 'string', pattern: '^[1-9][0-9]*$', description: 'A user of the active tenant' },
            issuer: { type: 'string', format: 'uri', maxLength: 500, description: 'Default: IAM_ISSUER' },
          },
        }),
      },
      responses: {
        '201': answer('Linked', { type: 'object', properties: { data: ref('IdentityLink') } }),
        '409': coded('`{error:"identity_link_exists"}`: the identity is linked already'),
        '422': invalid,
        ...gated,
      },
    },
  },
  '/api/admin/identity-links/{id}': {
    delete: {
      summary: 'Removes a link; the identity stops acting as the user at once (`can:manageMcpTools`)',
      parameters: [{ name: 'id', in: 'path', required: true, description: 'Identity link id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } }],
      responses: { '204': { description: 'Removed' }, '404': coded("Unknown or another tenant's link"), ...gated },
    },
  },
  '/api/admin/mcp/tokens': {
    get: {
      summary: "The active tenant's MCP tokens, newest first (`can:manageMcpTools`)",
      parameters: paging,
      responses: { '200': answer('A page', pageOf('McpToken')), '422': invalid, ...gated },
    },
    post: {
      summary: 'Issues a tenant MCP token; the secret is in the answer only (`can:manageMcpTools`)',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['label'],
          properties: {
            label: { type: 'string', maxLength: 120 },
            expires_at: { type: 'string', format: 'date-time', description: 'In the future; none = no expiry' },
            scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: MCP_SCOPES }, description: `Default: ${MCP_SCOPES.join(', ')}` },
          },
        }),
      },
      responses: {
        '201': answer('Issued', { type: 'object', properties: { data: ref('McpToken'), plain_token: { type: 'string', pattern: '^mcp_', description: 'Shown once' } } }),
        '422': invalid,
        ...gated,
      },
    },
  },
  '/api/admin/mcp/tokens/{id}/revoke': {
    post: {
      summary: 'Revokes a token at once; revoking again keeps the first time (`can:manageMcpTools`)',
      parameters: [idParam],
      responses: { '200': answer('Revoked', { type: 'object', properties: { data: ref('McpToken') } }), '404': coded('Unknown or another tenant\'s token'), ...gated },
    },
  },
  '/api/admin/mcp-servers': {
    get: {
      summary: "The tenant's MCP servers with their tools, required scopes and enabled flags (`can:manageMcpTools`)",
      responses: { '200': answer('Servers', { type: 'object', properties: { data: { type: 'array', items: ref('McpServer') } } }), ...gated },
    },
  },
  '/api/admin/mcp-servers/{server}': {
    get: {
      summary: 'One MCP server (`can:manageMcpTools`)',
      parameters: [serverParam],
      responses: { '200': answer('Server', { type: 'object', properties: { data: ref('McpServer') } }), '404': coded('Unknown server'), ...gated },
    },
  },
  '/api/admin/mcp-servers/{server}/tools/{tool}': {
    patch: {
      summary: 'Enables or disables a tool for the tenant: a disabled tool is absent from tools/list and refused at tools/call (`can:manageMcpTools`)',
      parameters: [serverParam, toolParam],
      requestBody: { required: true, content: json({ type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' } } }) },
      responses: { '200': answer('The tool', { type: 'object', properties: { data: ref('McpTool') } }), '404': coded('Unknown server or tool'), '422': invalid, ...gated },
    },
  },
  '/api/admin/mcp-tool-call-audit': {
    get: {
      summary: "The tenant's tools/call audit, newest first (`can:viewMcpAudit`)",
      parameters: [
        ...paging,
        { name: 'tool', in: 'query', schema: { type: 'string' } },
        { name: 'outcome', in: 'query', schema: { enum: ['ok', 'denied', 'error'] } },
        { name: 'token_id', in: 'query', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Inclusive; a date or a date-time' },
        { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Inclusive; a date covers its whole day' },
      ],
      responses: { '200': answer('A page', pageOf('McpToolCallAudit')), '422': invalid, ...gated },
    },
  },
  '/mcp/kb/calls/{approvalId}': {
    get: {
      summary: 'How a tools/call parked for human approval ended, for its caller (the same credentials as /mcp/kb)',
      description: [
        'A tools/call of a tool in `hitl.destructive_tools` (with `hitl.enabled`) answers a tool error `approval_required` with `approval_id` and `status_path`;',
        'the tenant\'s holders of `commands.destructive` get a `kb_tool_call_awaiting_approval` notification with the single-use token and the approve and reject links.',
        'This route answers `pending`, `running`, then `succeeded` with the tool\'s result (after the output guardrails and the indirect-injection screen),',
        'or `failed`, `rejected`, `expired` with `result.error` (`approval_rejected`, `approval_expired`). Only the caller\'s own calls: another caller\'s or tenant\'s is a 404.',
      ].join(' '),
      parameters: [{ name: 'approvalId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      responses: {
        '200': answer('The parked call', { type: 'object', properties: { data: ref('ParkedToolCall') } }),
        '401': answer('No or an invalid credential', ref('Error')),
        '404': coded('Not a parked call of this caller `{error: "not_found"}`'),
      },
    },
  },
  '/api/kb/tool-approvals/{token}/approve': {
    post: {
      summary: 'Approves a parked kb tool call (the approve link of its notification); it then runs exactly once in the kb worker',
      description: 'A user (not an integration token) of the call\'s tenant holding `commands.destructive`; the actor is the signed-in user. A repeated approve is a no-op 202.',
      parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,200}$' } }],
      responses: {
        '202': answer('Approved `{status: "approved", approval_id, tool, call_status}`', ref('ToolApprovalDecision')),
        '404': coded('No parked call of this tenant has this token `{error: "not_found"}`'),
        '409': coded('Expired, or rejected before `{error: "decision_failed", status}`'),
        '503': coded('Approvals unavailable `{error: "hitl_unavailable"}`'),
        ...gated,
      },
    },
  },
  '/api/kb/tool-approvals/{token}/reject': {
    post: {
      summary: 'Rejects a parked kb tool call (the reject link of its notification); its caller reads `rejected`',
      description: 'Same gate as approve. A repeated reject answers 200 again.',
      parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,200}$' } }],
      responses: {
        '200': answer('Rejected `{status: "rejected", approval_id, tool, call_status}`', ref('ToolApprovalDecision')),
        '404': coded('No parked call of this tenant has this token `{error: "not_found"}`'),
        '409': coded('Expired, or approved before `{error: "decision_failed", status}`'),
        '503': coded('Approvals unavailable `{error: "hitl_unavailable"}`'),
        ...gated,
      },
    },
  },
};

const PARKED_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'rejected', 'expired'];

export const MCP_SCHEMAS: Record<string, object> = {
  ParkedToolCall: {
    type: 'object',
    properties: {
      approval_id: { type: 'string', format: 'uuid' },
      tool: { type: 'string' },
      status: { enum: PARKED_STATUSES },
      expires_at: nullableDate,
      result: { oneOf: [{ type: 'object', description: "The tool's result, or `{error: {code, message}}`" }, { type: 'null' }] },
      message: { type: 'string' },
    },
  },
  ToolApprovalDecision: {
    type: 'object',
    properties: {
      status: { enum: ['approved', 'rejected'] },
      approval_id: { type: 'string', format: 'uuid' },
      tool: { type: 'string' },
      call_status: { enum: PARKED_STATUSES },
    },
  },
  ProtectedResourceMetadata: {
    type: 'object',
    required: ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported'],
    properties: {
      resource: { type: 'string', format: 'uri' },
      authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' } },
      scopes_supported: { type: 'array', items: { enum: MCP_SCOPES } },
      bearer_methods_supported: { type: 'array', items: { enum: ['header'] } },
      resource_name: { type: 'string' },
      dpop_signing_alg_values_supported: { type: 'array', items: { type: 'string' } },
      dpop_bound_access_tokens_required: { type: 'boolean' },
    },
  },
  IdentityLink: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      issuer: { type: 'string' },
      subject: { type: 'string' },
      user_id: { type: 'string' },
      created_by: { oneOf: [{ type: 'string' }, { type: 'null' }] },
      created_at: dateTime,
    },
  },
  McpJsonRpcRequest: {
    type: 'object',
    required: ['jsonrpc', 'method'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      method: { type: 'string', examples: ['initialize', 'tools/list', 'tools/call'] },
      params: { type: 'object', description: 'tools/call: `{name, arguments}`' },
    },
  },
  McpJsonRpcResponse: {
    type: 'object',
    properties: { jsonrpc: { const: '2.0' }, id: { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] }, result: { type: 'object' }, error: { type: 'object' } },
  },
  McpToken: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      label: { type: 'string' },
      token_last4: { type: 'string' },
      scopes: { type: 'array', items: { enum: MCP_SCOPES } },
      created_by: nullableInt,
      last_used_at: nullableDate,
      expires_at: nullableDate,
      revoked_at: nullableDate,
      created_at: dateTime,
    },
  },
  McpTool: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      description: { type: 'string' },
      required_scope: { enum: MCP_SCOPES },
      enabled: { type: 'boolean' },
      input_schema: { type: 'object', description: 'JSON schema of the arguments' },
    },
  },
  McpServer: {
    type: 'object',
    properties: {
      name: { type: 'string', examples: [KB_SERVER.name] },
      version: { type: 'string' },
      transport: { const: 'streamable-http' },
      endpoint: { type: 'string' },
      builtin: { type: 'boolean' },
      tools: { type: 'array', items: ref('McpTool') },
    },
  },
  McpToolCallAudit: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      token_id: nullableInt,
      user_id: nullableInt,
      tool: { type: 'string' },
      arguments_hash: { type: 'string', description: 'sha256 of the arguments as canonical JSON' },
      arguments: { type: 'object', description: 'The arguments with personal data masked and long text cut' },
      outcome: { enum: ['ok', 'denied', 'error'] },
      reason: { oneOf: [{ type: 'string' }, { type: 'null' }], description: 'e.g. tool_disabled, firewall:invalid_arguments, not_found' },
      duration_ms: { type: 'integer' },
      created_at: dateTime,
    },
  },
};
