import { KeysetPage, KeysetQuery, Clock, systemClock } from '../ports/keyset-page';
import { SettingsChangedEvent, SettingsChangedPublisher, SettingsStore, StoredSettingChange } from '../ports/settings-store.port';
import { applySettingsPatch, effectiveSettings, SettingChange } from './effective-settings';
import { GuardrailsSettings } from './setting-types';
import { validateSettingsPatch } from './settings-patch';

export type SettingsUpdateResult =
  | { ok: true; settings: GuardrailsSettings; changes: SettingChange[]; dropped: string[] }
  | { ok: false; errors: Record<string, string[]> };

/**
 * Runtime settings over a store: the configured defaults overlaid with stored overrides, and the
 * PUT use case (validate all or nothing, store only effective changes with the server-derived actor,
 * then tell every host through the publisher).
 */
export class GuardrailsSettingsService {
  private readonly publisher?: SettingsChangedPublisher;
  private readonly clock: Clock;
  private readonly onPublishError: (error: unknown) => void;

  constructor(
    private readonly store: SettingsStore,
    private readonly defaults: Readonly<GuardrailsSettings>,
    options: { publisher?: SettingsChangedPublisher; clock?: Clock; onPublishError?: (error: unknown) => void } = {},
  ) {
    this.publisher = options.publisher;
    this.clock = options.clock ?? systemClock;
    this.onPublishError = options.onPublishError ?? ((e) => process.emitWarning(`SettingsChanged not published: ${(e as Error)?.message ?? e}`));
  }

  async effective(): Promise<GuardrailsSettings> {
    return effectiveSettings(this.defaults, await this.store.loadOverrides());
  }

  async update(body: unknown, actorId: string | null): Promise<SettingsUpdateResult> {
    // Validated before any lock: a refused body never waits for, or holds up, a writer.
    const patch = validateSettingsPatch(body);
    if (!patch.ok) return patch;
    // A configuration-only store accepts the request and changes nothing (so logs nothing).
    if (!this.store.writable) {
      return { ok: true, settings: effectiveSettings(this.defaults, await this.store.loadOverrides()), changes: [], dropped: patch.dropped };
    }
    // Before and after are decided on the overrides as stored under the store's write lock, so
    // concurrent saves each see the one before: an identical save records nothing, and every
    // change record's old_value is the value it actually replaced.
    const { plan, occurredAt } = await this.store.updateOverrides((current) => {
      const decided = applySettingsPatch(patch, current, this.defaults);
      const at = this.clock.now();
      return {
        changes: decided.changes.map((c) => ({ ...c, actor_id: actorId, occurred_at: at })),
        outcome: { plan: decided, occurredAt: at },
      };
    });
    if (plan.changes.length === 0) return { ok: true, settings: plan.effective, changes: [], dropped: plan.dropped };
    const event: SettingsChangedEvent = { keys: plan.changes.map((c) => c.key), actor_id: actorId, occurred_at: occurredAt.toISOString() };
    // The change is stored whatever happens next; a lost event is caught up by the hosts' periodic
    // reload (see LiveSettings), so a publish failure must not turn a saved change into an error.
    await this.publisher?.publish(event).catch(this.onPublishError);
    return { ok: true, settings: plan.effective, changes: plan.changes, dropped: plan.dropped };
  }

  listChanges(query: KeysetQuery): Promise<KeysetPage<StoredSettingChange>> {
    return this.store.listChanges(query);
  }
}
