import { Injectable } from '@nestjs/common';
import { PageQueryDto, pageWindow, toPage } from '../../admin/pagination';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { CollectionRow, CollectionsRepository } from './collections.repository';
import { slugify } from '../slug';
import { CollectionMembersDto, CreateCollectionDto, UpdateCollectionDto } from './curation.dto';

/** Admin CRUD over kb_collections; membership lives on the documents (metadata.collection_ids). */
@Injectable()
export class CollectionsService {
  constructor(private readonly collections: CollectionsRepository) {}

  async list(tenantId: string, q: PageQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.collections.list(tenantId, q.search, w);
    return toPage(rows, total, w);
  }

  async get(tenantId: string, id: string): Promise<{ data: CollectionRow }> {
    const row = await this.collections.find(tenantId, id);
    if (!row) throw new KbError(404, 'not_found', 'Collection not found.');
    return { data: row };
  }

  async create(tenantId: string, body: CreateCollectionDto) {
    const slug = body.slug ?? slugify(body.name, 'collection');
    if (await this.collections.slugTaken(tenantId, slug)) throw new KbValidationError({ slug: ['The slug has already been taken.'] });
    return this.get(tenantId, await this.collections.create(tenantId, { ...body, slug }));
  }

  async update(tenantId: string, id: string, body: UpdateCollectionDto) {
    await this.get(tenantId, id);
    if (body.slug !== undefined && (await this.collections.slugTaken(tenantId, body.slug, id))) throw new KbValidationError({ slug: ['The slug has already been taken.'] });
    await this.collections.update(tenantId, id, body);
    return this.get(tenantId, id);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!(await this.collections.remove(tenantId, id))) throw new KbError(404, 'not_found', 'Collection not found.');
  }

  async changeMembers(tenantId: string, id: string, body: CollectionMembersDto) {
    await this.get(tenantId, id);
    const changed = await this.collections.changeMembers(tenantId, Number(id), body.add ?? [], body.remove ?? []);
    return { ...changed, data: (await this.get(tenantId, id)).data };
  }
}
