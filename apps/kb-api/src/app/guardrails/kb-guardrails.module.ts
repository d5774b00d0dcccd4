import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { withDatabase } from '@platform/database';
import { DEFAULT_SETTINGS, Guardrails, GuardrailsHost, sqlRunnerFor, startGuardrailsHost } from '@platform/guardrails';
import { createRedisSubscriber } from '@platform/queue';
import { PinoLogger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { kbEnv } from '../kb-config';
import { KB_GUARDRAILS } from './guardrails-token';
import { IndirectInjectionScreen } from './indirect-injection';

export { KB_GUARDRAILS };
const KB_GUARDRAILS_HOST = Symbol.for('kb-api.GUARDRAILS_HOST');

interface KbGuardrailsHost extends GuardrailsHost {
  close(): Promise<void>;
}

/**
 * kb-api screens questions and handles answers with the guardrails library on the shared
 * guardrails database, so its audit shows in the guardrails admin API and a settings change made
 * there reaches this process through SettingsChanged.
 */
@Global()
@Module({
  providers: [
    {
      provide: KB_GUARDRAILS_HOST,
      inject: [ConfigService, PinoLogger],
      useFactory: async (config: ConfigService, logger: PinoLogger): Promise<KbGuardrailsHost> => {
        const env = kbEnv(config);
        const url = withDatabase(env.get('DATABASE_URL'), env.get('KB_GUARDRAILS_DATABASE_NAME'));
        const db = new DataSource({ type: 'postgres', url, extra: { max: 4, connectionTimeoutMillis: 5000 } });
        try {
          await db.initialize();
        } catch (e) {
          throw new Error(`guardrails database ${env.get('KB_GUARDRAILS_DATABASE_NAME')} is unreachable (run cli.js migrate): ${(e as Error).message}`);
        }
        const subscriber = createRedisSubscriber(env.get('REDIS_URL'));
        const host = await startGuardrailsHost({
          db: sqlRunnerFor(db),
          subscriber,
          channel: env.get('GUARDRAILS_SETTINGS_CHANNEL'),
          defaults: DEFAULT_SETTINGS,
          sidecar: 'database',
          options: { approvalTtlMinutes: env.get('GUARDRAILS_APPROVAL_TTL_MINUTES') },
          onWarning: (message, err) => logger.warn({ err }, message),
        });
        return {
          ...host,
          close: async () => {
            await host.stop();
            subscriber.disconnect();
            await db.destroy();
          },
        };
      },
    },
    { provide: KB_GUARDRAILS, inject: [KB_GUARDRAILS_HOST], useFactory: (h: GuardrailsHost): Guardrails => h.guardrails },
    IndirectInjectionScreen,
  ],
  exports: [KB_GUARDRAILS, IndirectInjectionScreen],
})
export class KbGuardrailsModule implements OnApplicationShutdown {
  constructor(@Inject(KB_GUARDRAILS_HOST) private readonly host: KbGuardrailsHost) {}

  onApplicationShutdown(): Promise<void> {
    return this.host.close();
  }
}
