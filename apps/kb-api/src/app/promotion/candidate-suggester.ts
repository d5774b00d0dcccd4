import { Injectable } from '@nestjs/common';
import { LlmUnavailableError } from '@platform/llm';
import { AnswerProvider } from '../chat/answer-provider';
import { KbError } from '../errors/kb-errors';
import { CANONICAL_TYPES, CanonicalType, MAX_SLUG, SLUG } from './canonical-types';

export interface SuggestedCandidate {
  type: CanonicalType;
  slug_proposal: string;
  title_proposal: string;
  reason: string;
  related: string[];
}

export const MAX_SUGGESTIONS = 10;

const SUGGEST_PROMPT = `You read a conversation transcript and propose knowledge-base documents worth writing from it.
Each candidate has a type (one of: ${CANONICAL_TYPES.join(', ')}), a slug_proposal (lower-case words joined by hyphens),
a title_proposal, a reason (why it deserves a document, one or two sentences) and related (slugs of existing documents it links to).
Do not propose a slug listed in existing_slugs. Propose at most ${MAX_SUGGESTIONS}; propose none when nothing is worth keeping.
Reply as {"candidates": [...]}.`;

const toSlug = (s: string) =>
  s
    .replace(/^\[\[|\]\]$/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG);

/**
 * Asks the configured model for promotion candidates. The reply is untrusted: items with an
 * unknown type, no usable slug or title, a taken slug or a repeat are dropped, and text is capped.
 */
@Injectable()
export class CandidateSuggester {
  constructor(private readonly provider: AnswerProvider) {}

  get configured(): boolean {
    return this.provider.llm !== null;
  }

  async suggest(transcript: string, projectKey: string | undefined, existingSlugs: string[]): Promise<SuggestedCandidate[]> {
    const llm = this.provider.llm;
    if (!llm) throw new KbError(503, 'llm_not_configured', 'Suggesting candidates needs a configured language model.');
    let reply;
    try {
      reply = await llm.complete({ purpose: 'kb.promotion.suggest', prompt: SUGGEST_PROMPT, payload: { transcript, project_key: projectKey ?? null, existing_slugs: existingSlugs }, max_tokens: 2048 });
    } catch (e) {
      if (e instanceof LlmUnavailableError) throw new KbError(e.kind === 'timeout' ? 504 : 502, 'llm_unavailable', `The suggesting model is unavailable: ${e.message}`);
      throw e;
    }
    const items = (reply.data as { candidates?: unknown } | null)?.candidates;
    return Array.isArray(items) ? sanitize(items, new Set(existingSlugs.map(toSlug))) : [];
  }
}

function sanitize(items: unknown[], taken: Set<string>): SuggestedCandidate[] {
  const out: SuggestedCandidate[] = [];
  for (const item of items) {
    if (out.length === MAX_SUGGESTIONS) break;
    if (item === null || typeof item !== 'object') continue;
    const c = item as Record<string, unknown>;
    if (!CANONICAL_TYPES.includes(c['type'] as CanonicalType)) continue;
    const slug = typeof c['slug_proposal'] === 'string' ? toSlug(c['slug_proposal']) : '';
    const title = typeof c['title_proposal'] === 'string' ? c['title_proposal'].replace(/\s+/g, ' ').trim().slice(0, 200) : '';
    if (!SLUG.test(slug) || !title || taken.has(slug)) continue;
    taken.add(slug);
    const related = Array.isArray(c['related']) ? c['related'].filter((r): r is string => typeof r === 'string').map(toSlug).filter((r) => SLUG.test(r) && r !== slug) : [];
    out.push({
      type: c['type'] as CanonicalType,
      slug_proposal: slug,
      title_proposal: title,
      reason: typeof c['reason'] === 'string' ? c['reason'].trim().slice(0, 500) : '',
      related: [...new Set(related)].slice(0, 20),
    });
  }
  return out;
}
