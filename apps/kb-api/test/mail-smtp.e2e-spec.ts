import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (plain SMTP, no auth, like a relay on a private network). */
async function startMailbox(): Promise<{
  port: number;
  received: Received[];
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded text body of a single-part message (quoted-printable or plain). */
function textBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(headers)) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

describe('kb-api mail over SMTP', () => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    mailbox = await startMailbox();
    ({ svc, db, stop } = await startKb({
      KB_MAIL_SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      KB_MAIL_FROM: 'kb-noreply@mail.test',
      KB_APP_URL: 'https://kb.example.test/app/',
    }));
  });
  afterAll(async () => {
    await stop();
    await mailbox.close();
  });

  it('sends the forgot-password mail through the SMTP server, and its reset link works', async () => {
    await createUser(db, { email: 'Mail.User@Mail.test' });
    const c = new KbClient(svc.url);
    expect(
      (
        await c.call('POST', '/api/auth/forgot-password', {
          body: { email: 'mail.user@mail.test' },
        })
      ).status,
    ).toBe(204);

    expect(mailbox.received).toHaveLength(1);
    const [mail] = mailbox.received;
    expect(mail.from).toBe('kb-noreply@mail.test');
    // The transport may normalise the domain's case (domains are case-insensitive).
    expect(mail.to.map((a) => a.toLowerCase())).toEqual(['mail.user@mail.test']);
    expect(mail.raw).toMatch(/^Subject: Reset your password\r$/m);
    // Nothing was kept in the development outbox: the transport carried it.
    expect(await db.query('SELECT id FROM kb_mail_outbox')).toEqual([]);

    const link = /https:\/\/kb\.example\.test\/app\/reset-password\?\S+/.exec(textBody(mail.raw));
    expect(link).not.toBeNull();
    const url = new URL(link![0]);
    expect(url.searchParams.get('email')).toBe('Mail.User@Mail.test');
    const token = url.searchParams.get('token')!;
    const reset = await c.call('POST', '/api/auth/reset-password', {
      body: {
        token,
        email: url.searchParams.get('email'),
        password: 'a brand new password',
        password_confirmation: 'a brand new password',
      },
    });
    expect(reset.status).toBe(204);
    expect(
      (
        await c.call('POST', '/api/auth/login', {
          body: { email: 'mail.user@mail.test', password: 'a brand new password' },
        })
      ).status,
    ).toBe(200);
  });

  it('sends nothing for an unknown email, and still answers 204', async () => {
    const before = mailbox.received.length;
    expect(
      (
        await new KbClient(svc.url).call('POST', '/api/auth/forgot-password', {
          body: { email: 'nobody@mail.test' },
        })
      ).status,
    ).toBe(204);
    expect(mailbox.received).toHaveLength(before);
  });
});
