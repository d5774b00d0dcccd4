import { Injectable } from '@nestjs/common';
import { PageQueryDto, pageWindow, toPage } from '../../admin/pagination';
import { KbError } from '../../errors/kb-errors';
import { TagsRepository } from './tags.repository';

/** Tag list with counts; rename and delete across the tenant's documents. */
@Injectable()
export class TagsService {
  constructor(private readonly tags: TagsRepository) {}

  async list(tenantId: string, q: PageQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.tags.list(tenantId, q.search, w);
    return toPage(rows, total, w);
  }

  async rename(tenantId: string, tag: string, name: string) {
    const documents = tag === name ? await this.tags.count(tenantId, tag) : await this.tags.rename(tenantId, tag, name);
    if (documents === 0) throw new KbError(404, 'not_found', 'Tag not found.');
    return { tag: name, previous: tag, documents };
  }

  async remove(tenantId: string, tag: string) {
    const documents = await this.tags.remove(tenantId, tag);
    if (documents === 0) throw new KbError(404, 'not_found', 'Tag not found.');
    return { tag, removed_from: documents };
  }
}
