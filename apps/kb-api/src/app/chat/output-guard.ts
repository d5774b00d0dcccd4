import { Inject, Injectable } from '@nestjs/common';
import { Guardrails, OutputCounts } from '@platform/guardrails';
import { KB_GUARDRAILS } from '../guardrails/guardrails-token';

/**
 * The fields of what kb-api returns that carry document or model text: every string under one of
 * these keys is user- or model-facing content. Ids, paths, slugs, scores and codes are not listed,
 * so the handler never rewrites them.
 */
export const OUTPUT_TEXT_FIELDS: ReadonlySet<string> = new Set([
  'answer',
  'title',
  'headings',
  'heading',
  'heading_path',
  'snippet',
  'text',
  'chunk_text',
  'metadata',
  'title_proposal',
]);

/**
 * The one way kb-api passes an answer through the output guardrails: chat (plain and streamed),
 * conversation turns, the widget and MCP tool results all call `guard`, which hands the whole
 * value to the library's output handler.
 */
@Injectable()
export class OutputGuard {
  constructor(@Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails) {}

  async guard<T>(value: T): Promise<{ value: T; counts: OutputCounts }> {
    const { value: handled, counts } = await this.guardrails.handleOutputFields(value, OUTPUT_TEXT_FIELDS);
    return { value: handled, counts };
  }
}
