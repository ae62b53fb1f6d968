import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../../../../tests/fakes/smtp-server.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp } from '../../../../tests/helpers/users.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

/** The SMTP mailer over a real socket to tests/fakes/smtp-server.ts. */

const from = 'Likeness <no-reply@likeness.example>';
const servers: FakeSmtp[] = [];

async function smtpServer(options?: Parameters<typeof startFakeSmtp>[0]) {
  const server = await startFakeSmtp(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('the SMTP mailer', () => {
  it('delivers the envelope, headers and both bodies, exactly', async () => {
    const server = await smtpServer();
    // A long line with "=" and non-ASCII text: the mailer must encode, the fake decodes.
    const link = `https://likeness.example/api/auth/reset-password/${'t0k3n'.repeat(20)}?callbackURL=%2Freset-password`;
    const text = `Bonjour Zoë,\n\nOpen this link to choose a new password:\n${link}\n\n.A line that starts with a dot\n..and two\n`;
    const html = `<p>Bonjour Zoë,</p><p><a href="${link}">Choose a new password</a></p>`;
    await createSmtpMailer(server.url, from).send({
      to: 'zoe@example.com',
      subject: 'Réinitialisez votre mot de passe — Likeness',
      text,
      html,
    });

    expect(server.messages).toHaveLength(1);
    const message = server.messages[0]!;
    expect(message.envelope).toEqual({
      from: 'no-reply@likeness.example',
      to: ['zoe@example.com'],
    });
    expect(message.headers.from).toBe(from);
    expect(message.headers.to).toBe('zoe@example.com');
    expect(message.headers.subject).toBe('Réinitialisez votre mot de passe — Likeness');
    expect(message.headers['message-id']).toMatch(/^<.+@.+>$/);
    expect(message.text?.replace(/\r\n/g, '\n')).toBe(text);
    expect(message.html).toBe(html);
    // Every line of the message stays within SMTP's limit (998 characters).
    expect(Math.max(...message.raw.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(
      998,
    );
    // (nodemailer closes the connection after a message without always saying QUIT.)
    const verbs = server.commands.map((c) => c.split(' ')[0]!.replace(/:.*/, ''));
    expect(verbs.filter((verb) => verb !== 'QUIT')).toEqual(['EHLO', 'MAIL', 'RCPT', 'DATA']);
  });

  it('rejects when the server refuses the recipient with 550, and nothing is delivered', async () => {
    const server = await smtpServer({
      refuseRecipient: (address) =>
        address === 'gone@example.com'
          ? '550 5.1.1 <gone@example.com>: mailbox unavailable'
          : undefined,
    });
    const mailer = createSmtpMailer(server.url, from);
    await expect(
      mailer.send({ to: 'gone@example.com', subject: 'Hello', text: 'Hello' }),
    ).rejects.toThrow(/550 5\.1\.1/);
    expect(server.messages).toHaveLength(0);
    // The same mailer keeps working for the next message.
    await mailer.send({ to: 'here@example.com', subject: 'Hello', text: 'Hello' });
    expect(server.messages.map((m) => m.envelope.to)).toEqual([['here@example.com']]);
  });

  it('signs in with the credentials in SMTP_URL, and fails on wrong ones', async () => {
    const server = await smtpServer({
      auth: { user: 'mailer@likeness.example', pass: 's3cret:p@ss' },
    });
    const withCredentials = (user: string, pass: string) =>
      server.url.replace(
        'smtp://',
        `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@`,
      );
    await createSmtpMailer(withCredentials('mailer@likeness.example', 's3cret:p@ss'), from).send({
      to: 'ana@example.com',
      subject: 'Signed in',
      text: 'ok',
    });
    expect(server.messages[0]?.authenticatedAs).toBe('mailer@likeness.example');

    await expect(
      createSmtpMailer(withCredentials('mailer@likeness.example', 'wrong'), from).send({
        to: 'ana@example.com',
        subject: 'Refused',
        text: 'no',
      }),
    ).rejects.toThrow(/535/);
    // Without credentials the server refuses the message.
    await expect(
      createSmtpMailer(server.url, from).send({ to: 'ana@example.com', subject: 'x', text: 'x' }),
    ).rejects.toThrow(/530/);
    expect(server.messages).toHaveLength(1);
  });

  it('rejects when no server listens', async () => {
    const server = await smtpServer();
    const url = server.url;
    await server.close();
    await expect(
      createSmtpMailer(url, from).send({ to: 'ana@example.com', subject: 'x', text: 'x' }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the fake SMTP server', () => {
  it('speaks the protocol a plain client expects: HELO, order checks, dot-stuffing, QUIT', async () => {
    const server = await smtpServer();
    const socket = connect(server.port, '127.0.0.1');
    socket.setEncoding('utf8');
    let received = '';
    socket.on('data', (chunk: string) => (received += chunk));
    const replyTo = async (line: string | undefined) => {
      const before = received.length;
      if (line !== undefined) socket.write(`${line}\r\n`);
      await vi.waitFor(() => expect(received.slice(before)).toMatch(/^\d{3} .*\r\n$/m));
      return received.slice(before).trim().split('\r\n').at(-1)!;
    };
    expect(await replyTo(undefined)).toMatch(/^220 /);
    expect(await replyTo('MAIL FROM:<a@example.com>')).toMatch(/^503 /);
    expect(await replyTo('HELO client.test')).toMatch(/^250 /);
    expect(await replyTo('DATA')).toMatch(/^503 /);
    expect(await replyTo('MAIL FROM:<a@example.com>')).toMatch(/^250 /);
    expect(await replyTo('DATA')).toMatch(/^554 /);
    expect(await replyTo('RCPT TO:<b@example.com>')).toMatch(/^250 /);
    expect(await replyTo('DATA')).toMatch(/^354 /);
    expect(await replyTo('Subject: Hi\r\n\r\n..starts with a dot\r\nplain\r\n.')).toMatch(
      /^250 2\.0\.0 OK queued/,
    );
    expect(await replyTo('NOOP')).toMatch(/^250 /);
    expect(await replyTo('VRFY b@example.com')).toMatch(/^502 /);
    expect(await replyTo('QUIT')).toMatch(/^221 /);
    await vi.waitFor(() => expect(socket.readableEnded).toBe(true));
    expect(server.messages[0]).toMatchObject({
      envelope: { from: 'a@example.com', to: ['b@example.com'] },
      clientName: 'client.test',
      headers: { subject: 'Hi' },
      text: '.starts with a dot\r\nplain',
    });
  });
});

describe('the app with SMTP_URL', () => {
  let server: FakeSmtp;
  let app: TestApp;
  beforeAll(async () => {
    server = await startFakeSmtp();
    app = await createTestApp({ env: { SMTP_URL: server.url } });
  });
  afterAll(async () => {
    await app?.stop();
    await server?.close();
  });

  it('emails a working password reset link through the SMTP server', async () => {
    const user = await signUp(app);
    const requested = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: app.origin, 'content-type': 'application/json' },
      payload: { email: user.email },
    });
    expect(requested.statusCode).toBe(200);

    // The email job runs in the app's worker, after the answer.
    const message = await server.waitForMessage((m) => m.envelope.to.includes(user.email));
    expect(message.envelope.to).toEqual([user.email]);
    expect(message.headers.from).toBe(app.config.email.from);
    expect(message.headers.to).toBe(user.email);
    const link = new URL(/https?:\/\/\S+/.exec(message.text ?? '')![0]);
    expect(`${link.origin}${link.pathname}`).toMatch(
      new RegExp(`^${app.config.publicUrl}/api/auth/reset-password/[^/]+$`),
    );

    // The link is the one Better Auth accepts: it opens the reset page with the token.
    const opened = await app.app!.inject({ method: 'GET', url: link.pathname + link.search });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toMatch(
      new RegExp(`^${app.config.publicUrl}/reset-password\\?token=[^&]+$`),
    );
    // Sent by SMTP, not written to the embedded outbox.
    expect(await readdir(app.config.email.outboxDir).catch(() => [])).toEqual([]);
  });
});
