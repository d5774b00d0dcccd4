import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DEFAULT_SETTINGS, Guardrails, GuardrailsHost, startGuardrailsHost } from '@platform/guardrails';
import { createRedisSubscriber } from '@platform/queue';
import { Clock } from '@platform/runtime';
import { PinoLogger } from 'nestjs-pino';
import { OutputGuard } from '../chat/output-guard';
import { KbConfig } from '../../config/kb-config';
import { openGuardrailsDatabase } from './guardrails-database';
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
 * there reaches this process through SettingsChanged. Global: it provides the guardrails and the
 * OutputGuard every answering feature passes its results through, in the API and the worker.
 */
@Global()
@Module({
  providers: [
    {
      provide: KB_GUARDRAILS_HOST,
      inject: [KbConfig, PinoLogger, Clock],
      useFactory: async (config: KbConfig, logger: PinoLogger, clock: Clock): Promise<KbGuardrailsHost> => {
        const db = await openGuardrailsDatabase(config.get('DATABASE_URL'), config.get('KB_GUARDRAILS_DATABASE_NAME'), config.get('DATABASE_PREPARE_AFTER'));
        const subscriber = createRedisSubscriber(config.get('REDIS_URL'));
        const host = await startGuardrailsHost({
          db: db.sql,
          subscriber,
          channel: config.get('GUARDRAILS_SETTINGS_CHANNEL'),
          defaults: DEFAULT_SETTINGS,
          sidecar: 'database',
          options: { approvalTtlMinutes: config.get('GUARDRAILS_APPROVAL_TTL_MINUTES') },
          onWarning: (message, err) => logger.warn({ err }, message),
          clock,
        });
        return {
          ...host,
          close: async () => {
            await host.stop();
            subscriber.disconnect();
            await db.close();
          },
        };
      },
    },
    { provide: KB_GUARDRAILS, inject: [KB_GUARDRAILS_HOST], useFactory: (h: GuardrailsHost): Guardrails => h.guardrails },
    IndirectInjectionScreen,
    // The one OutputGuard: chat, conversations, retrieval, the widget, MCP and approved tool calls share it.
    OutputGuard,
  ],
  exports: [KB_GUARDRAILS, IndirectInjectionScreen, OutputGuard],
})
export class KbGuardrailsModule implements OnApplicationShutdown {
  constructor(@Inject(KB_GUARDRAILS_HOST) private readonly host: KbGuardrailsHost) {}

  onApplicationShutdown(): Promise<void> {
    return this.host.close();
  }
}
