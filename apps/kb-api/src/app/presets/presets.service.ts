import { Injectable } from '@nestjs/common';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { DuplicatePresetName, PresetRow, PresetsRepository } from './presets.repository';

const present = (r: PresetRow) => ({ ...r, id: Number(r.id) });
const notFound = () => new KbError(404, 'not_found', 'Preset not found.');
const duplicateName = () => new KbValidationError({ name: ['You already have a preset with this name.'] });

/** Chat-filter presets: each user's own, names unique per user; someone else's is simply not there (404). */
@Injectable()
export class PresetsService {
  constructor(private readonly presets: PresetsRepository) {}

  async list(tenantId: string, userId: string) {
    return (await this.presets.list(tenantId, userId)).map(present);
  }

  async get(tenantId: string, userId: string, id: string) {
    const row = await this.presets.find(tenantId, userId, id);
    if (!row) throw notFound();
    return present(row);
  }

  async create(tenantId: string, userId: string, name: string, filters: object) {
    return present(await this.renamingErrors(() => this.presets.create(tenantId, userId, name, filters)));
  }

  async update(tenantId: string, userId: string, id: string, name: string, filters: object) {
    const row = await this.renamingErrors(() => this.presets.update(tenantId, userId, id, name, filters));
    if (!row) throw notFound();
    return present(row);
  }

  async remove(tenantId: string, userId: string, id: string): Promise<void> {
    if (!(await this.presets.remove(tenantId, userId, id))) throw notFound();
  }

  /** A taken name is the caller's mistake: answer it as a validation error on `name`. */
  private async renamingErrors<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (e instanceof DuplicatePresetName) throw duplicateName();
      throw e;
    }
  }
}
