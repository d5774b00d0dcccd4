import { Logger } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
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

/**
 * The review engine as MCP tools (reference §1.12): assess, label a source's tier, list profiles.
 * One server per request (stateless streamable HTTP); the caller's tenant comes from its token.
 * tools/list and tools/call are the protocol server's own handlers: each tool's arguments are a
 * class-validator DTO, published as the JSON Schema derived from it.
 */
export function createEvidenceMcpServer(reviews: ReviewsService, engine: ReviewEngine, tenantId: string): McpServer {
  const server = new McpServer({ name: 'evidence-risk-review', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
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
