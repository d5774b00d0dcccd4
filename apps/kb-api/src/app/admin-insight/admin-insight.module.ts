import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { QUEUES } from '@platform/contracts';
import { ComplianceController } from './compliance/compliance.controller';
import { ComplianceRepository } from './compliance/compliance.repository';
import { ComplianceService } from './compliance/compliance.service';
import { ReportBuilders } from './compliance/report-builders';
import { InsightsController } from './insights/insights.controller';
import { InsightsRepository } from './insights/insights.repository';
import { InsightsService } from './insights/insights.service';
import { ActivityLogInterceptor } from './logs/activity-log.interceptor';
import { ApplicationLogInterceptor } from './logs/application-log.interceptor';
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
 * compliance reports. Also records every 5xx and every admin mutation, app-wide.
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
    ReportBuilders,
    ComplianceRepository,
    ComplianceService,
    { provide: APP_INTERCEPTOR, useClass: ApplicationLogInterceptor },
    { provide: APP_INTERCEPTOR, useClass: ActivityLogInterceptor },
  ],
})
export class KbAdminInsightModule {}
