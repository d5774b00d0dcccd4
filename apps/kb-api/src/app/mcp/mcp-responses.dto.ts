import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../api-docs';
import { KB_SERVER, MCP_SCOPES } from './mcp-scopes';

/** The request and answer shapes of the MCP edge and its admin routes, as the document describes them. */
const rpcId = { oneOf: [{ type: 'string' }, { type: 'integer' }] };

/** One JSON-RPC 2.0 message to /mcp/kb (a batch is an array of them). */
export class McpJsonRpcRequestDto {
  @ApiProperty({ enum: ['2.0'] }) jsonrpc!: '2.0';
  @ApiPropertySchema(rpcId, { required: false, description: 'Absent for a notification' }) id?: string | number;
  @ApiProperty({ description: 'initialize, tools/list, tools/call, …', example: 'tools/call' }) method!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'tools/call: `{name, arguments}`' }) params?: object;
}

export class McpJsonRpcResponseDto {
  @ApiProperty({ enum: ['2.0'] }) jsonrpc!: '2.0';
  @ApiPropertySchema({ oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] }) id!: string | number | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) result?: object;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '`{code, message}`' }) error?: object;
}

/** RFC 9728 protected resource metadata. */
export class ProtectedResourceMetadataDto {
  @ApiProperty({ format: 'uri' }) resource!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uri' } }) authorization_servers!: string[];
  @ApiProperty({ type: 'array', items: { enum: [...MCP_SCOPES] } }) scopes_supported!: string[];
  @ApiProperty({ type: 'array', items: { enum: ['header'] } }) bearer_methods_supported!: string[];
  @ApiPropertyOptional() resource_name?: string;
  @ApiPropertyOptional({ type: [String] }) dpop_signing_alg_values_supported?: string[];
  @ApiPropertyOptional() dpop_bound_access_tokens_required?: boolean;
}

export class McpTokenDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() label!: string;
  @ApiProperty() token_last4!: string;
  @ApiProperty({ type: 'array', items: { enum: [...MCP_SCOPES] } }) scopes!: string[];
  @ApiPropertySchema(nullable({ type: 'integer' })) created_by!: number | null;
  @ApiPropertySchema(nullable(DATE_TIME)) last_used_at!: string | null;
  @ApiPropertySchema(nullable(DATE_TIME)) expires_at!: string | null;
  @ApiPropertySchema(nullable(DATE_TIME)) revoked_at!: string | null;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
}

@ApiExtraModels(McpTokenDto)
export class IssuedMcpTokenDto {
  @ApiPropertySchema({ $ref: getSchemaPath(McpTokenDto) }) data!: McpTokenDto;
  @ApiProperty({ pattern: '^mcp_', description: 'Shown once' }) plain_token!: string;
}

export class McpToolDto {
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: MCP_SCOPES }) required_scope!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON schema of the arguments' }) input_schema!: object;
}

export class McpServerDto {
  @ApiProperty({ example: KB_SERVER.name }) name!: string;
  @ApiProperty() version!: string;
  @ApiProperty({ enum: ['streamable-http'] }) transport!: string;
  @ApiProperty() endpoint!: string;
  @ApiProperty() builtin!: boolean;
  @ApiProperty({ type: () => [McpToolDto] }) tools!: McpToolDto[];
}

export class McpToolCallAuditDto {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiPropertySchema(nullable({ type: 'integer' })) token_id!: number | null;
  @ApiPropertySchema(nullable({ type: 'integer' })) user_id!: number | null;
  @ApiProperty() tool!: string;
  @ApiProperty({ description: 'sha256 of the arguments as canonical JSON' }) arguments_hash!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The arguments with personal data masked and long text cut' })
  arguments!: object;
  @ApiProperty({ enum: ['ok', 'denied', 'error'] }) outcome!: string;
  @ApiPropertySchema(nullable({ type: 'string' }), { description: 'e.g. tool_disabled, firewall:invalid_arguments, not_found' })
  reason!: string | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiPropertySchema(DATE_TIME) created_at!: string;
}
