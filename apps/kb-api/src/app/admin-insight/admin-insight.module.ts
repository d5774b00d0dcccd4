import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { ComplianceSourcesRepository } from './compliance/compliance-sources.repository';
import { ComplianceController } from './compliance/compliance.controller';
import { ComplianceRepository } from './compliance/compliance.repository';
import { ComplianceService } from './compliance/compliance.service';
import { ReportBuilders } from './compliance/report-builders';
import { InsightsController } from './insights/insights.controller';
import { InsightsRepository } from './insights/insights.repository';
import { InsightsService } from './insights/insights.service';
import { ChatLogsController } from './logs/chat-logs.controller';
import { ChatLogsRepository } from './logs/chat-logs.repository';
import { ChatLogsService } from './logs/chat-logs.service';
import { EventLogsController } from './logs/event-logs.controller';
import { EventLogsRepository } from './logs/event-logs.repository';
import { FailedJobsController } from './logs/failed-jobs.controller';
import { FailedJobsService } from './logs/failed-jobs.service';
import { PiiRedactionModule } from './pii/pii-redaction.module';
import { PiiStrategyController } from './pii/pii-strategy.controller';
import { PiiStrategyService } from './pii/pii-strategy.service';

/**
 * Admin surfaces over what happened: the PII strategy chat logs are written with, the logs (chat,
 * promotion audit, application errors, admin activity, failed jobs), insight snapshots and
 * compliance reports. The application and activity logs it reads are written by RequestLogModule.
 */
@Module({
  imports: [PiiRedactionModule, BullModule.registerQueue({ name: QUEUES.kbIngest })],
  controllers: [
    PiiStrategyController,
    ChatLogsController,
    EventLogsController,
    FailedJobsController,
    InsightsController,
    ComplianceController,
  ],
  providers: [
    PiiStrategyService,
    ChatLogsRepository,
    ChatLogsService,
    EventLogsRepository,
    FailedJobsService,
    InsightsRepository,
    InsightsService,
    ComplianceSourcesRepository,
    ReportBuilders,
    ComplianceRepository,
    ComplianceService,
  ],
})
export class KbAdminInsightModule {}
