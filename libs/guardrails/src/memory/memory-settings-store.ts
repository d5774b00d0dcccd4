import { KeysetPage, KeysetQuery } from '../ports/keyset-page';
import { SettingChangeRecord, SettingsStore, StoredSettingChange } from '../ports/settings-store.port';
import { SettingsOverrides } from '../settings/setting-types';
import { copy, keysetPage } from './keyset';

export class MemorySettingsStore implements SettingsStore {
  private overrides: Record<string, unknown>;
  private changes: StoredSettingChange[] = [];
  private nextId = 1;

  constructor(initial: Record<string, unknown> = {}, readonly writable = true) {
    this.overrides = copy(initial);
  }

  async loadOverrides(): Promise<Record<string, unknown>> {
    return copy(this.overrides);
  }

  async saveOverrides(overrides: SettingsOverrides, changes: SettingChangeRecord[]): Promise<void> {
    if (!this.writable) throw new Error('settings store is read-only');
    this.overrides = copy(overrides);
    for (const change of changes) this.changes.push({ ...copy(change), id: this.nextId++ });
  }

  async listChanges(query: KeysetQuery): Promise<KeysetPage<StoredSettingChange>> {
    return copy(keysetPage(this.changes, query, () => true));
  }
}
