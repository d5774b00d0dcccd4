import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DEFAULT_JOB_OPTIONS } from './job-options';
import { redisOptionsFromUrl } from './redis';

/** BullMQ on the service's Redis, with its own key prefix so services can share one Redis. */
@Module({})
export class QueueModule {
  static forRoot(defaultPrefix: string): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        BullModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService) => ({
            connection: redisOptionsFromUrl(config.getOrThrow<string>('REDIS_URL')),
            prefix: config.get<string>('REDIS_PREFIX') ?? defaultPrefix,
            defaultJobOptions: DEFAULT_JOB_OPTIONS,
          }),
        }),
      ],
      exports: [BullModule],
    };
  }
}
