import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * kb_mail_outbox: the development outbox, where mail goes when no SMTP transport is configured.
 * Platform-wide (no tenant): mail is addressed to a person, and sign-up and password-reset mail is
 * sent before any tenant is known.
 */
@Injectable()
export class MailOutboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async keep(recipient: string, subject: string, body: string): Promise<void> {
    await this.db.query('INSERT INTO kb_mail_outbox (recipient, subject, body) VALUES ($1, $2, $3)', [recipient, subject, body]);
  }
}
