import { Injectable } from '@nestjs/common';
import { DocumentCatalogRepository } from '../../documents/document-catalog.repository';
import { KbError } from '../../errors/kb-errors';
import { KbConfig } from '../../../config/kb-config';
import { CandidateSuggester } from '../../promotion/candidate-suggester';
import { RetrievalService, RetrievedChunk } from '../../retrieval/retrieval.service';
import { defineTool, KbTool, ToolContext, ToolNotFound } from './kb-tool';
import {
  EDGE_TYPES,
  KbDocumentBySlugInput,
  KbDocumentsByTypeInput,
  KbGraphNeighborsInput,
  KbGraphSubgraphInput,
  KbPromotionSuggestInput,
  KbReadChunkInput,
  KbReadDocumentInput,
  KbRecentChangesInput,
  KbSearchByProjectInput,
  KbSearchInput,
} from './kb-tool-inputs';
import { McpKnowledgeRepository } from './mcp-knowledge.repository';

const hit = (c: RetrievedChunk) => ({
  chunk_id: c.chunk_id,
  document_id: c.document_id,
  project_key: c.project_key,
  title: c.title,
  slug: c.slug,
  source_path: c.source_path,
  heading_path: c.heading_path,
  text: c.text,
  score: Math.round(c.score * 1000) / 1000,
});

/**
 * The built-in `enterprise-kb` server's tools, each over the same services as the HTTP API:
 * RetrievalService for search, the document catalogue for wikilinks and one-hop neighbours, the
 * promotion module's suggester for candidates.
 */
@Injectable()
export class KbToolCatalogue {
  readonly tools: readonly KbTool[];
  private readonly byName: Map<string, KbTool>;
  private readonly promotionEnabled: boolean;

  constructor(
    private readonly retrieval: RetrievalService,
    private readonly catalog: DocumentCatalogRepository,
    private readonly knowledge: McpKnowledgeRepository,
    private readonly suggester: CandidateSuggester,
    config: KbConfig,
  ) {
    this.promotionEnabled = config.get('KB_PROMOTION_ENABLED');
    this.tools = this.define();
    this.byName = new Map(this.tools.map((t) => [t.name, t]));
  }

  find(name: string): KbTool | undefined {
    return this.byName.get(name);
  }

  private async search(ctx: ToolContext, text: string, projectKey: string | undefined, limit: number) {
    const found = await this.retrieval.ranked(ctx.tenantId, text, projectKey ? { project_keys: [projectKey] } : {}, limit);
    return { results: found.chunks.map(hit) };
  }

  private async readDocument(ctx: ToolContext, id: number, withChunks: boolean) {
    const document = await this.knowledge.document(ctx.tenantId, id, withChunks);
    if (!document) throw new ToolNotFound('Document');
    return { document };
  }

  private define(): KbTool[] {
    return [
      defineTool({
        name: 'kb-search',
        description: 'Search the knowledge base; returns the best matching chunks with their documents.',
        scope: 'mcp:read',
        input: KbSearchInput,
        run: (ctx, a) => this.search(ctx, a.query, a.project_key, a.limit),
      }),
      defineTool({
        name: 'kb-search-by-project',
        description: 'Search one project of the knowledge base.',
        scope: 'mcp:read',
        input: KbSearchByProjectInput,
        run: (ctx, a) => this.search(ctx, a.query, a.project_key, a.limit),
      }),
      defineTool({
        name: 'kb-read-document',
        description: 'Read a document with its metadata and all its chunks in order.',
        scope: 'mcp:read',
        input: KbReadDocumentInput,
        run: (ctx, a) => this.readDocument(ctx, a.document_id, true),
      }),
      defineTool({
        name: 'kb-read-chunk',
        description: 'Read one chunk with the document it belongs to.',
        scope: 'mcp:read',
        input: KbReadChunkInput,
        run: async (ctx, a) => {
          const chunk = await this.knowledge.chunk(ctx.tenantId, a.chunk_id);
          if (!chunk) throw new ToolNotFound('Chunk');
          return { chunk };
        },
      }),
      defineTool({
        name: 'kb-recent-changes',
        description: 'The most recently changed documents, newest first.',
        scope: 'mcp:read',
        input: KbRecentChangesInput,
        run: async (ctx, a) => ({ documents: await this.knowledge.recent(ctx.tenantId, a.project_key, a.limit) }),
      }),
      defineTool({
        name: 'kb-document-by-slug',
        description: 'Read the document a slug names in a project (the canonical one first), as a [[wikilink]] resolves.',
        scope: 'mcp:read',
        input: KbDocumentBySlugInput,
        run: async (ctx, a) => {
          const target = await this.catalog.wikilinkTarget(ctx.tenantId, a.project_key, a.slug);
          if (!target) throw new ToolNotFound('Document');
          return this.readDocument(ctx, target.document_id, a.include_chunks);
        },
      }),
      defineTool({
        name: 'kb-documents-by-type',
        description: 'Canonical documents of one type in a project, by title; status_filter "any" lists every status.',
        scope: 'mcp:read',
        input: KbDocumentsByTypeInput,
        run: async (ctx, a) => ({
          documents: await this.knowledge.byType(ctx.tenantId, a.project_key, a.type, a.status_filter === 'any' ? null : a.status_filter, a.limit),
        }),
      }),
      defineTool({
        name: 'kb-graph-neighbors',
        description: 'The documents a node (a document slug) links to (links_to) and the documents linking to it (linked_from).',
        scope: 'mcp:read',
        input: KbGraphNeighborsInput,
        run: async (ctx, a) => {
          const wanted = new Set(a.edge_types ?? EDGE_TYPES);
          const rows = await this.catalog.related(ctx.tenantId, a.project_key, [a.node_uid], 100);
          const neighbors = rows
            .map((r) => ({ uid: r.slug, title: r.title, edge_type: r.direction === 'outgoing' ? ('links_to' as const) : ('linked_from' as const) }))
            .filter((n) => wanted.has(n.edge_type))
            .slice(0, a.limit);
          return { node_uid: a.node_uid, project_key: a.project_key, neighbors };
        },
      }),
      defineTool({
        name: 'kb-graph-subgraph',
        description: 'The link graph around a seed document: nodes within `hops` links either way, at most `max_nodes`.',
        scope: 'mcp:read',
        input: KbGraphSubgraphInput,
        run: (ctx, a) => this.subgraph(ctx, a.project_key, a.seed_slug, a.hops, a.max_nodes),
      }),
      defineTool({
        name: 'kb-promotion-suggest',
        description: 'Propose knowledge-base documents worth writing from a conversation transcript.',
        scope: 'mcp:tools:propose',
        input: KbPromotionSuggestInput,
        run: async (_ctx, a) => {
          if (!this.promotionEnabled) throw new KbError(503, 'promotion_disabled', 'Promotion is disabled on this installation.');
          return { candidates: await this.suggester.suggest(a.transcript, a.project_key, a.existing_slugs ?? []) };
        },
      }),
    ];
  }

  /** Breadth-first over wikilink edges in both directions; a node is kept at its first (shortest) hop. */
  private async subgraph(ctx: ToolContext, projectKey: string, seed: string, hops: number, maxNodes: number) {
    const hopOf = new Map<string, number>([[seed, 0]]);
    const edges = new Map<string, { source: string; target: string }>();
    let frontier = [seed];
    for (let hop = 1; hop <= hops && frontier.length > 0 && hopOf.size < maxNodes; hop++) {
      const next: string[] = [];
      for (const e of await this.knowledge.edgesTouching(ctx.tenantId, projectKey, frontier, 1000)) {
        for (const node of [e.source, e.target]) {
          if (!hopOf.has(node) && hopOf.size < maxNodes) {
            hopOf.set(node, hop);
            next.push(node);
          }
        }
        if (hopOf.has(e.source) && hopOf.has(e.target)) edges.set(`${e.source}\0${e.target}`, e);
      }
      frontier = next;
    }
    const titles = await this.knowledge.titles(ctx.tenantId, projectKey, [...hopOf.keys()]);
    if (!titles.has(seed) && edges.size === 0) throw new ToolNotFound('Document');
    return {
      seed_slug: seed,
      project_key: projectKey,
      nodes: [...hopOf].map(([uid, hop]) => ({ uid, title: titles.get(uid) ?? null, hop })),
      edges: [...edges.values()].map((e) => ({ ...e, type: 'links_to' })),
    };
  }
}
