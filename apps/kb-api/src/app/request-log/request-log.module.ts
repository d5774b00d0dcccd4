import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ActivityLogInterceptor } from './activity-log.interceptor';
import { ApplicationLogInterceptor } from './application-log.interceptor';
import { RequestLogRepository } from './request-log.repository';

/**
 * Records requests app-wide, so it is installed by the app module, not by a feature: every 5xx of
 * any route (kb_application_logs) and every mutation under /api/admin and /api/system-admin, which
 * several admin modules serve (kb_activity_logs). The admin insight module only reads the rows.
 */
@Module({
  providers: [
    RequestLogRepository,
    { provide: APP_INTERCEPTOR, useClass: ApplicationLogInterceptor },
    { provide: APP_INTERCEPTOR, useClass: ActivityLogInterceptor },
  ],
})
export class RequestLogModule {}
