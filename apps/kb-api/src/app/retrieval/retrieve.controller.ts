import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { hasMediaType, LeanRoute } from '@platform/runtime';
import { ApiValidationFailed } from '../api-docs';
import { ApiSignedIn } from '../api-docs/signed-in';
import { TokenAbilityGate } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { OutputGuard } from '../chat/output-guard';
import { RetrieveAnswer, RetrieveRequestDto } from './dto/retrieve.dto';
import { RetrievalService } from './retrieval.service';
import { snippetOf } from './snippet';

export const DEFAULT_TOP_K = 10;

/** Ranked chunks without an answer: the chat's retrieval (same ranking, tenant and filters), cut at top_k. */
@ApiTags('Chat')
@Controller('api/kb/retrieve')
export class RetrieveController {
  constructor(
    private readonly retrieval: RetrievalService,
    private readonly output: OutputGuard,
  ) {}

  @Post()
  @ApiOperation({
    summary: "Ranked chunks for a query without an answer: the chat's retrieval, best first, one entry per chunk",
    description:
      "`auth:guard`, `token.ability:kb:read`, tenant-scoped like the chat. The ranking is the one the chat and the MCP search tools use (BM25 over the tenant's chunks, fused with vector similarity where an embeddings provider is configured); `filters` is the chat's filter object, applied in SQL. At most three chunks of one document.",
  })
  @ApiOkResponse({ description: 'The ranking', type: RetrieveAnswer })
  @ApiSignedIn('A token without `kb:read` `{error: "token_ability_forbidden"}`, or a tenant refusal')
  @ApiValidationFailed()
  @HttpCode(200)
  @TokenAbilityGate('kb:read')
  // The hot read of the knowledge base: a JSON body takes the lean request path (same guards, pipes and reply, less per-request machinery).
  @LeanRoute({ accepts: hasMediaType('application/json') })
  async retrieve(@Body() body: RetrieveRequestDto, @Req() req: KbRequest): Promise<RetrieveAnswer> {
    const started = performance.now();
    const found = await this.retrieval.ranked(req.kbPrincipal!.tenantId, body.query, { ...body.filters }, body.top_k ?? DEFAULT_TOP_K);
    // Titles and snippets are document text shown to a person or a model: the same output
    // guardrails as every answer (HTML removed, PII handled), after ranking and before timing ends.
    const { value: data } = await this.output.guard(
      found.chunks.map((c) => ({
        document_id: c.document_id,
        chunk_id: c.chunk_id,
        source_path: c.source_path,
        title: c.title || 'Untitled',
        project_key: c.project_key,
        score: c.score,
        snippet: snippetOf(c.text),
      })),
    );
    return {
      data,
      meta: { total_candidates: found.candidates, latency_ms: Math.round(performance.now() - started), retrievers: found.retrievers },
    };
  }
}
