import { Module } from '@nestjs/common';
import { PlatformModule } from '@platform/runtime';
import { ApiDocsModule } from './app/docs/docs.module';
import { ProxyModule } from './app/proxy/proxy.module';
import { GatewayEnv } from './config/env';

@Module({
  imports: [PlatformModule.forRoot({ service: 'gateway', env: GatewayEnv, redis: false }), ProxyModule, ApiDocsModule],
})
export class AppModule {}
