import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EvidenceError, ReviewEngine } from '@platform/evidence-engine';
import { z } from 'zod';
import { ReviewsService } from '../reviews/reviews.service';

const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });

function failure(e: unknown) {
  const error =
    e instanceof EvidenceError
      ? { code: e.code, message: e.message, details: e.details }
      : { code: 'internal_error', message: 'The review could not be completed.', details: [] };
  return { ...json({ error }), isError: true };
}

/**
 * The review engine as MCP tools (reference §1.12): assess, label a source's tier, list profiles.
 * One server per request (stateless streamable HTTP); the caller's tenant comes from its token.
 */
export function createEvidenceMcpServer(reviews: ReviewsService, engine: ReviewEngine, tenantId: string): McpServer {
  const server = new McpServer({ name: 'evidence-risk-review', version: '1.0.0' });

  server.registerTool(
    'evidence_review.assess',
    {
      description: 'Review an artifact (claims with cited sources) and return the review result with findings and a verdict.',
      inputSchema: {
        artifact_id: z.string().min(1),
        answer_text: z.string().min(1),
        question: z.string().nullable().optional(),
        claims: z.array(z.record(z.string(), z.unknown())).optional(),
        sources: z.array(z.record(z.string(), z.unknown())).optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
        options: z.record(z.string(), z.unknown()).optional(),
      },
    },
    async (args) => {
      try {
        return json(await reviews.review(tenantId, args));
      } catch (e) {
        return failure(e);
      }
    },
  );

  server.registerTool(
    'evidence_review.label_tier',
    {
      description: 'Label one source with its evidence tier (declared tier, domain hints, arXiv, DOI).',
      inputSchema: {
        id: z.string().min(1),
        url: z.string().nullable().optional(),
        title: z.string().nullable().optional(),
        snippet: z.string().nullable().optional(),
        declared_tier: z.string().nullable().optional(),
      },
    },
    async (args) => {
      try {
        return json(engine.labelTier(args));
      } catch (e) {
        return failure(e);
      }
    },
  );

  server.registerTool(
    'evidence_review.list_profiles',
    { description: 'List the configured risk profiles.', inputSchema: {} },
    async () => json(engine.listProfiles()),
  );

  return server;
}
