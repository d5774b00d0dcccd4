import { SettingChange } from '../settings/effective-settings';
import { SettingKey, SettingsOverrides } from '../settings/setting-types';
import { KeysetPage, KeysetQuery } from './keyset-page';

export interface SettingChangeRecord extends SettingChange {
  /** Server-derived acting user; never taken from the request body. */
  actor_id: string | null;
  occurred_at: Date;
}

export interface StoredSettingChange extends SettingChangeRecord {
  id: number;
}

/** Runtime overrides of the allow-listed settings, with their append-only change log. */
export interface SettingsStore {
  /** False for a read-only (configuration) store: a PUT then changes and logs nothing. */
  readonly writable: boolean;
  /** Stored overrides as saved (callers re-validate them; see `effectiveSettings`). */
  loadOverrides(): Promise<Record<string, unknown>>;
  /**
   * Stores the overrides of the changed keys and appends their change records in one transaction
   * (`overrides` is the full set after the change; keys without a change are already stored).
   */
  saveOverrides(overrides: SettingsOverrides, changes: SettingChangeRecord[]): Promise<void>;
  listChanges(query: KeysetQuery): Promise<KeysetPage<StoredSettingChange>>;
}

/** Published after a PUT that changed something, so every host reloads within a second. */
export interface SettingsChangedEvent {
  keys: SettingKey[];
  actor_id: string | null;
  occurred_at: string;
}

export interface SettingsChangedPublisher {
  publish(event: SettingsChangedEvent): Promise<void>;
}
