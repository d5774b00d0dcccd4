import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface ApplicationLogEntry {
  tenantId: string | null;
  level: 'error' | 'warning';
  method: string;
  route: string;
  status: number;
  errorClass: string;
  errorCode: string | null;
  requestId: string | null;
  userId: string | null;
}

export interface ActivityLogEntry {
  tenantId: string;
  actorUserId: string | null;
  actorKind: string;
  method: string;
  route: string;
  status: number;
  outcome: 'success' | 'failure';
  targetId: string | null;
  requestId: string | null;
}

/** kb_application_logs and kb_activity_logs: one row per failed request or audited mutation (the admin reads them). */
@Injectable()
export class RequestLogRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async recordApplication(e: ApplicationLogEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_application_logs (tenant_id, level, method, route, status, error_class, error_code, request_id, user_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        e.tenantId,
        e.level,
        e.method,
        e.route,
        e.status,
        e.errorClass,
        e.errorCode,
        e.requestId,
        e.userId,
      ],
    );
  }

  async recordActivity(e: ActivityLogEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_activity_logs (tenant_id, actor_user_id, actor_kind, method, route, status, outcome, target_id, request_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        e.tenantId,
        e.actorUserId,
        e.actorKind,
        e.method,
        e.route,
        e.status,
        e.outcome,
        e.targetId,
        e.requestId,
      ],
    );
  }
}
