import { DynamicModule, Global, Module } from '@nestjs/common';
import { DrainingService } from './draining.service';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness.service';

@Global()
@Module({})
export class HealthModule {
  /** `http: false` in workers: they expose the same checks on a side port instead (see @platform/runtime). */
  static forRoot(options: { http?: boolean } = {}): DynamicModule {
    return {
      module: HealthModule,
      controllers: options.http === false ? [] : [HealthController],
      providers: [DrainingService, ReadinessService],
      exports: [DrainingService, ReadinessService],
    };
  }
}
