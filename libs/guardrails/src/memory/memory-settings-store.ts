import { KeysetPage, KeysetQuery } from '../ports/keyset-page';
import { SettingChangeRecord, SettingsStore, StoredSettingChange } from '../ports/settings-store.port';
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

  /** `decide` is synchronous, so nothing else runs between the read and the write. */
  async updateOverrides<T>(decide: (current: Record<string, unknown>) => { changes: SettingChangeRecord[]; outcome: T }): Promise<T> {
    if (!this.writable) throw new Error('settings store is read-only');
    const { changes, outcome } = decide(copy(this.overrides));
    for (const change of changes) {
      this.overrides[change.key] = copy(change.new_value);
      this.changes.push({ ...copy(change), id: this.nextId++ });
    }
    return outcome;
  }

  async listChanges(query: KeysetQuery): Promise<KeysetPage<StoredSettingChange>> {
    return copy(keysetPage(this.changes, query, () => true));
  }
}
