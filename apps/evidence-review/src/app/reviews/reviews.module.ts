import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { Clock } from '@platform/runtime';
import { reviewEngineProvider } from './engine.provider';
import { ReviewLogRepository } from './review-log.repository';
import { McpController } from '../mcp/mcp.controller';
import { ProtectedResourceController } from '../mcp/protected-resource.controller';
import { ReviewsController } from './reviews.controller';
import { ReviewsService } from './reviews.service';

@Module({})
export class ReviewsModule {
  /** Routes (HTTP and MCP) exist only when `api.enabled` (EVIDENCE_API_ENABLED) is true; the engine always loads. */
  static register(apiEnabled: boolean): DynamicModule {
    return {
      module: ReviewsModule,
      imports: [AuthModule.forRoot({ clock: Clock })],
      controllers: apiEnabled ? [ReviewsController, McpController, ProtectedResourceController] : [],
      providers: [reviewEngineProvider, ReviewLogRepository, ReviewsService],
      exports: [reviewEngineProvider, ReviewsService],
    };
  }
}
