import { SettingChange } from '../settings/effective-settings';
import { SettingKey } from '../settings/setting-types';
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
   * One read-modify-write of the overrides, serialized with every other writer (on any host): `decide`
   * gets the overrides as stored at that moment and returns the change records to append, whose
   * `new_value`s are stored under their keys, in the same transaction; its `outcome` is returned.
   * Deciding on a value read outside the lock is what let concurrent saves log changes that never
   * happened and stale `old_value`s. `decide` must not block: other writers wait while it runs.
   */
  updateOverrides<T>(decide: (current: Record<string, unknown>) => { changes: SettingChangeRecord[]; outcome: T }): Promise<T>;
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
