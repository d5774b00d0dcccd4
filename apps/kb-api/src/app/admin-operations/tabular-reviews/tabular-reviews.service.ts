import { Injectable } from '@nestjs/common';
import { pageWindow, PageQueryDto, toPage } from '../../admin/pagination';
import type { KbPrincipal } from '../../auth/kb-principal';
import { extractiveAnswer } from '../../chat/extractive-answer';
import { KbMessage, KbValidationError } from '../../errors/kb-errors';
import { RetrievalService } from '../../retrieval/retrieval.service';
import { csvLine } from '../../csv/csv-field';
import { CellRow, Citation, ReviewRow, TabularReviewsRepository } from './tabular-reviews.repository';
import { CreateTabularReviewDto, MAX_REVIEW_DOCUMENTS } from './tabular-reviews.dto';
import { snippetOf } from '../../retrieval/snippet';

const notFound = () => new KbMessage(404, 'Tabular review not found.');
const QUOTE_CHARS = 400;

/**
 * Tabular reviews: each cell answers one column's question from one document only, extractively
 * (the chat's no-model answer over that document's best chunk), with the chunk it came from.
 */
@Injectable()
export class TabularReviewsService {
  constructor(
    private readonly reviews: TabularReviewsRepository,
    private readonly retrieval: RetrievalService,
  ) {}

  async list(who: KbPrincipal, q: PageQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.reviews.page(who.tenantId, q.search, w);
    return toPage(rows.map((r) => this.summary(r)), total, w);
  }

  async create(who: KbPrincipal, body: CreateTabularReviewDto) {
    const errors: Record<string, string[]> = {};
    let documentIds: number[] = [];
    if ((body.document_ids === undefined) === (body.project_key === undefined)) {
      errors['document_ids'] = ['Give either document_ids or project_key (exactly one).'];
    } else if (body.document_ids) {
      const live = await this.reviews.existingDocuments(who.tenantId, body.document_ids);
      body.document_ids.forEach((id, i) => {
        if (!live.has(id)) errors[`document_ids.${i}`] = ['The selected document does not exist.'];
      });
      documentIds = body.document_ids;
    } else {
      documentIds = await this.reviews.projectDocuments(who.tenantId, body.project_key!, MAX_REVIEW_DOCUMENTS + 1);
      if (documentIds.length === 0) errors['project_key'] = ['The project has no documents.'];
      if (documentIds.length > MAX_REVIEW_DOCUMENTS) errors['project_key'] = [`The project has more than ${MAX_REVIEW_DOCUMENTS} documents: list document_ids instead.`];
    }
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    const id = await this.reviews.create(who.tenantId, {
      name: body.name,
      projectKey: body.project_key ?? null,
      documentIds,
      columns: body.columns.map((c) => ({ label: c.label ?? c.question, question: c.question })),
      createdBy: who.userId,
    });
    return this.show(who, id);
  }

  async show(who: KbPrincipal, id: string) {
    const review = await this.get(who, id);
    const docs = await this.reviews.documents(who.tenantId, review.document_ids);
    const cells = new Map((await this.reviews.cells(who.tenantId, review.id)).map((c) => [`${c.document_id}:${c.column_index}`, c]));
    return {
      ...this.summary(review),
      columns: review.columns.map((c, index) => ({ index, ...c })),
      rows: review.document_ids.map((docId) => {
        const doc = docs.get(docId);
        return {
          document: doc ? { id: Number(doc.id), title: doc.title, source_path: doc.source_path, project_key: doc.project_key, deleted: doc.deleted } : { id: Number(docId), title: null, source_path: null, project_key: null, deleted: true },
          cells: review.columns.map((_c, index) => this.cell(cells.get(`${docId}:${index}`))),
        };
      }),
    };
  }

  /** Fills every cell again from the documents as they are now. */
  async run(who: KbPrincipal, id: string) {
    const review = await this.get(who, id);
    const docs = await this.reviews.documents(who.tenantId, review.document_ids);
    const cells: Array<Omit<CellRow, 'answered_at'>> = [];
    try {
      for (const docId of review.document_ids) {
        const live = docs.get(docId) && !docs.get(docId)!.deleted;
        for (const [index, column] of review.columns.entries()) {
          const found = live ? await this.answer(who.tenantId, Number(docId), column.question) : null;
          cells.push({ document_id: docId, column_index: index, status: found ? 'answered' : 'no_answer', answer: found?.answer ?? null, citation: found?.citation ?? null });
        }
      }
      await this.reviews.saveRun(who.tenantId, review.id, cells);
    } catch (e) {
      await this.reviews.markFailed(who.tenantId, review.id);
      throw e;
    }
    return this.show(who, review.id);
  }

  async remove(who: KbPrincipal, id: string) {
    if (!(await this.reviews.remove(who.tenantId, id))) throw notFound();
  }

  /** The grid as CSV: one row per document, per column its answer and its citation. */
  async csv(who: KbPrincipal, id: string): Promise<{ filename: string; body: string }> {
    const grid = await this.show(who, id);
    let body = csvLine(['document_id', 'title', 'source_path', ...grid.columns.flatMap((c) => [c.label, `${c.label} (citation)`])]);
    for (const row of grid.rows) {
      const values = row.cells.flatMap((cell) => [cell?.answer ?? '', cell?.citation ? `${cell.citation.source_path}${cell.citation.heading_path ? ` > ${cell.citation.heading_path}` : ''} #${cell.citation.chunk_id}` : '']);
      body += csvLine([row.document.id, row.document.title, row.document.source_path, ...values]);
    }
    return { filename: `tabular-review-${grid.id}.csv`, body };
  }

  /** The document's best chunk for the question, if it grounds an answer (shares enough of the question's weight). */
  private async answer(tenantId: string, documentId: number, question: string): Promise<{ answer: string; citation: Citation } | null> {
    const { primary } = await this.retrieval.retrieve(tenantId, question, { doc_ids: [documentId] });
    const best = primary.find((c) => c.grounded);
    if (!best) return null;
    const answer = extractiveAnswer(question, [best], new Map([[documentId, 1]])).replace(/\s*\[1\]/g, '').trim();
    return {
      answer,
      citation: {
        chunk_id: best.chunk_id,
        document_id: best.document_id,
        source_path: best.source_path,
        title: best.title,
        heading_path: best.heading_path,
        quote: snippetOf(best.text, QUOTE_CHARS),
        score: best.score,
      },
    };
  }

  private async get(who: KbPrincipal, id: string): Promise<ReviewRow> {
    const r = await this.reviews.find(who.tenantId, id);
    if (!r) throw notFound();
    return r;
  }

  private summary(r: ReviewRow) {
    const { document_ids, columns, ...rest } = r;
    return { ...rest, document_count: document_ids.length, column_count: columns.length };
  }

  private cell(c: CellRow | undefined) {
    return c ? { status: c.status, answer: c.answer, citation: c.citation, answered_at: c.answered_at } : null;
  }
}
