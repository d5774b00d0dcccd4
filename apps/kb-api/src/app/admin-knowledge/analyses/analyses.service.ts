import { Injectable } from '@nestjs/common';
import { pageWindow, toPage } from '../../admin/pagination';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { InventoryRepository } from '../inventory/inventory.repository';
import { KnowledgeSettingsService } from '../settings/settings.service';
import { ListAnalysesQueryDto, RunAnalysisDto } from './analyses.dto';
import { AnalysesRepository } from './analyses.repository';
import { isTopicWord } from './content-words';
import { CorpusRepository } from './corpus.repository';

const ORPHAN_SAMPLES = 100;

/**
 * Analyses of a project, run on request and stored. `coverage`: documents and chunks per folder,
 * the most widespread terms, and orphan documents (no wikilink in or out).
 */
@Injectable()
export class AnalysesService {
  constructor(
    private readonly analyses: AnalysesRepository,
    private readonly corpus: CorpusRepository,
    private readonly inventory: InventoryRepository,
    private readonly settings: KnowledgeSettingsService,
  ) {}

  async run(tenantId: string, userId: string | null, body: RunAnalysisDto) {
    if (!(await this.analyses.projectExists(tenantId, body.project_key))) throw new KbValidationError({ project_key: ['The selected project key is invalid.'] });
    const started = performance.now();
    const result = await this.coverage(tenantId, body.project_key);
    const row = await this.analyses.save(tenantId, { project_key: body.project_key, kind: body.kind ?? 'coverage', result, created_by: userId, duration_ms: Math.round(performance.now() - started) });
    return { data: row };
  }

  async list(tenantId: string, q: ListAnalysesQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.analyses.list(tenantId, q.project, w);
    return toPage(rows, total, w);
  }

  async get(tenantId: string, id: string) {
    const row = await this.analyses.find(tenantId, id);
    if (!row) throw new KbError(404, 'not_found', 'Analysis not found.');
    return { data: row };
  }

  private async coverage(tenantId: string, project: string) {
    const { top_terms } = await this.settings.of(tenantId, 'analysis');
    const [folders, terms, orphans] = await Promise.all([
      this.inventory.folderCounts(tenantId, project),
      // Stopwords are dropped after counting: read enough rows to keep `top_terms` of the others.
      this.corpus.topTerms(tenantId, project, top_terms * 4 + 50),
      this.corpus.orphans(tenantId, project, ORPHAN_SAMPLES),
    ]);
    folders.sort((a, b) => a.folder.localeCompare(b.folder));
    return {
      documents: folders.reduce((s, f) => s + f.documents, 0),
      chunks: folders.reduce((s, f) => s + f.chunks, 0),
      folders: folders.map(({ folder, documents, chunks }) => ({ folder, documents, chunks })),
      top_terms: terms.filter((t) => isTopicWord(t.term)).slice(0, top_terms),
      orphans: { count: orphans.count, documents: orphans.documents },
    };
  }
}
