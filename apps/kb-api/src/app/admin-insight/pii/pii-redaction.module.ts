import { Global, Module } from '@nestjs/common';
import { PiiStrategyRepository } from './pii-strategy.repository';

/** The tenant's PII strategy, global: chat's log writer applies it, the admin screens edit it and read the tokens. */
@Global()
@Module({
  providers: [PiiStrategyRepository],
  exports: [PiiStrategyRepository],
})
export class PiiRedactionModule {}
