import type Redis from 'ioredis';
import { SettingsChangedEvent, SettingsChangedPublisher } from '../ports/settings-store.port';
import { GuardrailsSettings } from './setting-types';

export class RedisSettingsPublisher implements SettingsChangedPublisher {
  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
  ) {}

  async publish(event: SettingsChangedEvent): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify(event));
  }
}

export interface LiveSettingsOptions {
  /** Loads the effective settings (defaults overlaid with the stored overrides). */
  load: () => Promise<GuardrailsSettings>;
  /** Receives every newly loaded value (e.g. `guardrails.updateSettings`). */
  apply: (settings: GuardrailsSettings, event: SettingsChangedEvent | null) => void;
  /** A connection of its own: a subscribed ioredis client can run no other command. */
  subscriber: Redis;
  channel: string;
  /** Safety net for events missed while Redis was away (default 30 s; 0 disables). */
  reloadIntervalMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Keeps a host's settings current: reloads from the store on every SettingsChanged message (so a
 * change made on any host applies everywhere within the pub/sub latency), after the subscriber
 * reconnects, and on a slow timer in case a message was lost.
 */
export class LiveSettings {
  private timer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> = Promise.resolve();

  constructor(private readonly o: LiveSettingsOptions) {}

  async start(): Promise<void> {
    const onError = this.o.onError ?? ((e: unknown) => process.emitWarning(`guardrails settings reload failed: ${(e as Error)?.message ?? e}`));
    this.o.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.o.channel) return;
      let event: SettingsChangedEvent | null = null;
      try {
        event = JSON.parse(message) as SettingsChangedEvent;
      } catch {
        // A malformed message still means "something changed": reload anyway.
      }
      this.reload(event).catch(onError);
    });
    // After a reconnect ioredis resubscribes; reload since messages sent meanwhile are gone.
    this.o.subscriber.on('ready', () => this.reload(null).catch(onError));
    await this.o.subscriber.subscribe(this.o.channel);
    await this.reload(null);
    const interval = this.o.reloadIntervalMs ?? 30_000;
    if (interval > 0) {
      this.timer = setInterval(() => this.reload(null).catch(onError), interval);
      this.timer.unref();
    }
  }

  /** Reloads in order: a slow load can never overwrite a newer one. */
  reload(event: SettingsChangedEvent | null): Promise<void> {
    this.reloading = this.reloading.catch(() => undefined).then(async () => this.o.apply(await this.o.load(), event));
    return this.reloading;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.o.subscriber.removeAllListeners('message');
    await this.o.subscriber.unsubscribe(this.o.channel).catch(() => undefined);
  }
}
