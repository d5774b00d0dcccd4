import { Logger } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  JSONRPCMessage,
  JSONRPCRequest,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { EvidenceError, ReviewEngine } from '@platform/evidence-engine';
import { clientDataError, dtoJsonSchema, validateDto, ValidationFailedError } from '@platform/observability';
import { ReviewsService } from '../reviews/reviews.service';
import { AssessInput, LabelTierInput } from './tool-inputs';

const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
/** A refusal in the words of a protocol error (`MCP error -32602: …`), as a tool error the model can read. */
const refusal = (message: string): CallToolResult => ({ content: [{ type: 'text', text: new McpError(ErrorCode.InvalidParams, message).message }], isError: true });

const logger = new Logger('EvidenceReviewMcp');

/**
 * A review error as the tool's error body, answered as the HTTP filter answers it: the engine's
 * own errors as they are, a value that reached Postgres and did not fit (a data exception, the
 * backstop behind the request's validation) as the client's validation_error, anything else
 * internal_error.
 */
function failure(e: unknown): CallToolResult {
  const data = clientDataError(e, logger);
  const error =
    e instanceof EvidenceError
      ? { code: e.code, message: e.message, details: e.details }
      : data
        ? { code: 'validation_error', message: data.message, details: data.errors.map((f) => ({ path: f.field, message: f.message })) }
        : { code: 'internal_error', message: 'The review could not be completed.', details: [] };
  return { ...json({ error }), isError: true };
}

interface EvidenceTool {
  name: string;
  description: string;
  /** The arguments' DTO; a tool without one takes none (whatever is sent is ignored). */
  input?: Type<object>;
  run(args: Record<string, unknown>): unknown;
}

/** The validated arguments as plain data, fields left out staying out. */
const plain = (dto: object) => Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined));

function tools(reviews: ReviewsService, engine: ReviewEngine, tenantId: string): EvidenceTool[] {
  return [
    {
      name: 'evidence_review.assess',
      description: 'Review an artifact (claims with cited sources) and return the review result with findings and a verdict.',
      input: AssessInput,
      run: (args) => reviews.review(tenantId, args),
    },
    {
      name: 'evidence_review.label_tier',
      description: 'Label one source with its evidence tier (declared tier, domain hints, arXiv, DOI).',
      input: LabelTierInput,
      run: (args) => engine.labelTier(args),
    },
    { name: 'evidence_review.list_profiles', description: 'List the configured risk profiles.', run: () => engine.listProfiles() },
  ];
}

/** Computed once: the schemas of the DTOs, which never change at run time. */
const schemas = new Map<Type<object>, Tool['inputSchema']>();
const schemaOf = (input?: Type<object>): Tool['inputSchema'] => {
  if (!input) return { type: 'object', properties: {} };
  if (!schemas.has(input)) schemas.set(input, dtoJsonSchema(input) as Tool['inputSchema']);
  return schemas.get(input)!;
};

async function call(tool: EvidenceTool, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  let input: Record<string, unknown> = {};
  if (tool.input) {
    try {
      input = plain(await validateDto(tool.input, args ?? {}));
    } catch (e) {
      if (!(e instanceof ValidationFailedError)) throw e;
      return refusal(`Input validation error: Invalid arguments for tool ${tool.name}: ${e.errors.map((f) => f.message).join('\n')}`);
    }
  }
  try {
    return json(await tool.run(input));
  } catch (e) {
    return failure(e);
  }
}

/** What a value that should have been an object is, in words. */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

interface RequestSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

/** The requests this server answers, by method, with the schema the SDK parses each with. */
const REQUEST_SCHEMAS = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/**
 * The answer to a request the SDK's own schema refuses, or undefined for one it accepts (or does
 * not know). Left to the SDK, such a request is parsed before any handler runs and answered as a
 * JSON-RPC internal error (-32603) whose message is the validator's issue dump. A tools/call whose
 * arguments are not an object (null, an array, a string) is refused like any other arguments a
 * tool refuses (docs/evidence-review.md): a tool result with `isError` and `MCP error -32602: …`.
 * Any other malformed request (a tools/call without a tool name, a tools/list cursor that is not a
 * string) is the JSON-RPC error -32602 invalid params, naming each problem in plain words.
 */
function malformedRequest(message: JSONRPCRequest): JSONRPCMessage | undefined {
  const parsed = REQUEST_SCHEMAS.get(message.method)?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  const args = params?.arguments;
  if (message.method === 'tools/call' && typeof params?.name === 'string' && args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return {
      jsonrpc: '2.0',
      id: message.id,
      result: refusal(`Input validation error: Invalid arguments for tool ${params.name}: arguments must be an object, not ${kindOf(args)}.`),
    };
  }
  const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'request'}: ${issue.message}`);
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid ${message.method} request: ${problems.join('; ')}` } };
}

/** The MCP server that answers malformed requests itself (malformedRequest), ahead of the SDK's parser. */
class EvidenceMcpServer extends McpServer {
  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const answer = isJSONRPCRequest(message) ? malformedRequest(message) : undefined;
      if (!answer) return deliver?.(message, extra);
      transport.send(answer).catch((e: unknown) => transport.onerror?.(e instanceof Error ? e : new Error(String(e))));
    };
  }
}

/**
 * The review engine as MCP tools (reference §1.12): assess, label a source's tier, list profiles.
 * One server per request (stateless streamable HTTP); the caller's tenant comes from its token.
 * tools/list and tools/call are the protocol server's own handlers: each tool's arguments are a
 * class-validator DTO, published as the JSON Schema derived from it.
 */
export function createEvidenceMcpServer(reviews: ReviewsService, engine: ReviewEngine, tenantId: string): McpServer {
  const server = new EvidenceMcpServer({ name: 'evidence-risk-review', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const byName = new Map(tools(reviews, engine, tenantId).map((t) => [t.name, t]));
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...byName.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: schemaOf(t.input), execution: { taskSupport: 'forbidden' as const } })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = byName.get(request.params.name);
    return tool ? call(tool, request.params.arguments) : refusal(`Tool ${request.params.name} not found`);
  });
  return server;
}
