import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { PinoLogger } from 'nestjs-pino';
import { KbConfig } from '../../config/kb-config';
import { MailOutboxRepository } from './mail-outbox.repository';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing mail: a real SMTP transport when KB_MAIL_SMTP_URL is set; otherwise the message is kept
 * in the kb_mail_outbox table for development (never silently dropped).
 */
@Injectable()
export class MailerService implements OnModuleDestroy {
  private readonly transport?: Transporter;
  private readonly from: string;

  constructor(
    private readonly outbox: MailOutboxRepository,
    config: KbConfig,
    private readonly logger: PinoLogger,
  ) {
    const url = config.get('KB_MAIL_SMTP_URL');
    this.from = config.get('KB_MAIL_FROM');
    if (url) this.transport = createTransport(url);
    logger.setContext('mailer');
  }

  async send(mail: Mail): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
      return;
    }
    await this.outbox.keep(mail.to, mail.subject, mail.text);
    this.logger.info({ subject: mail.subject }, 'mail kept in the development outbox (no SMTP transport configured)');
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
