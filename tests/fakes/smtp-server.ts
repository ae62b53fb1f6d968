import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A minimal SMTP server (RFC 5321) on a local port, for tests of the SMTP mailer: greeting, EHLO
 * and HELO, optional AUTH PLAIN / LOGIN, MAIL FROM, RCPT TO, DATA ending in "." (dot-stuffing
 * undone), RSET, NOOP, QUIT; replies with the usual codes and refuses commands out of order (503).
 * No TLS: STARTTLS is not offered. Received messages are parsed enough to assert on: envelope,
 * headers (encoded words decoded), and the text and HTML bodies (quoted-printable and base64
 * decoded, multipart followed).
 */

export interface ReceivedMessage {
  /** The envelope: MAIL FROM and every accepted RCPT TO address. */
  envelope: { from: string; to: string[] };
  /** The name the client gave in EHLO/HELO. */
  clientName: string;
  /** The user the session authenticated as, if any. */
  authenticatedAs: string | undefined;
  /** The message as received (dot-stuffing undone), CRLF line endings. */
  raw: string;
  /** Top-level headers by lower-case name (the first of each), unfolded and decoded. */
  headers: Record<string, string>;
  text: string | undefined;
  html: string | undefined;
}

export interface FakeSmtpOptions {
  /** An SMTP reply (e.g. `550 5.1.1 No such user`) to refuse a recipient with, or undefined. */
  refuseRecipient?: (address: string) => string | undefined;
  /** When set, MAIL FROM needs AUTH (PLAIN or LOGIN) with these credentials first. */
  auth?: { user: string; pass: string };
}

export interface FakeSmtp {
  /** smtp://127.0.0.1:PORT */
  url: string;
  port: number;
  messages: ReceivedMessage[];
  /** Every command line clients sent (AUTH payloads and message bodies left out). */
  commands: string[];
  /** Resolves with the first message (received already or later) that matches. */
  waitForMessage(
    match: (message: ReceivedMessage) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMessage>;
  close(): Promise<void>;
}

const hostName = 'fake-smtp.test';

export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const messages: ReceivedMessage[] = [];
  const commands: string[] = [];
  const waiters: {
    match: (m: ReceivedMessage) => boolean;
    resolve: (m: ReceivedMessage) => void;
  }[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    serve(socket);
  });

  function receive(message: ReceivedMessage) {
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  }

  function serve(socket: Socket) {
    socket.setEncoding('utf8');
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let clientName: string | undefined;
    let authenticatedAs: string | undefined;
    let from: string | undefined;
    let to: string[] = [];
    let data: string[] | undefined;
    /** The next line answers an AUTH challenge instead of being a command. */
    let challenge: ((line: string) => void) | undefined;
    let pending = '';

    const resetTransaction = () => {
      from = undefined;
      to = [];
      data = undefined;
    };

    const checkCredentials = (user: string, pass: string) => {
      if (options.auth && user === options.auth.user && pass === options.auth.pass) {
        authenticatedAs = user;
        reply('235 2.7.0 Authentication successful');
      } else {
        reply('535 5.7.8 Authentication credentials invalid');
      }
    };

    const handleLine = (line: string) => {
      if (data) {
        if (line === '.') {
          const raw = data.join('\r\n');
          const id = randomBytes(6).toString('hex');
          receive({
            envelope: { from: from!, to },
            clientName: clientName!,
            authenticatedAs,
            raw,
            ...parseMessage(raw),
          });
          resetTransaction();
          reply(`250 2.0.0 OK queued as ${id}`);
        } else {
          // Dot-stuffing: a line the client began with "." arrives as "..".
          data.push(line.startsWith('.') ? line.slice(1) : line);
        }
        return;
      }
      if (challenge) {
        const answer = challenge;
        challenge = undefined;
        answer(line);
        return;
      }
      const [verb = '', ...rest] = line.split(' ');
      const argument = rest.join(' ');
      const command = verb.toUpperCase();
      commands.push(command === 'AUTH' ? `AUTH ${rest[0] ?? ''}`.trim() : line);
      switch (command) {
        case 'EHLO':
          clientName = argument;
          resetTransaction();
          socket.write(
            [
              `250-${hostName} greets ${argument}`,
              '250-8BITMIME',
              '250-SMTPUTF8',
              ...(options.auth ? ['250-AUTH PLAIN LOGIN'] : []),
              '250 SIZE 26214400',
            ].join('\r\n') + '\r\n',
          );
          return;
        case 'HELO':
          clientName = argument;
          resetTransaction();
          return reply(`250 ${hostName}`);
        case 'AUTH': {
          if (!options.auth) return reply('502 5.5.1 AUTH not supported');
          if (authenticatedAs) return reply('503 5.5.1 Already authenticated');
          const mechanism = (rest[0] ?? '').toUpperCase();
          const plain = (encoded: string) => {
            const [, user = '', pass = ''] = Buffer.from(encoded, 'base64')
              .toString('utf8')
              .split('\0');
            checkCredentials(user, pass);
          };
          if (mechanism === 'PLAIN') {
            if (rest[1]) return plain(rest[1]);
            challenge = plain;
            return reply('334 ');
          }
          if (mechanism === 'LOGIN') {
            challenge = (userLine) => {
              const user = Buffer.from(userLine, 'base64').toString('utf8');
              challenge = (passLine) =>
                checkCredentials(user, Buffer.from(passLine, 'base64').toString('utf8'));
              reply('334 UGFzc3dvcmQ6');
            };
            return reply('334 VXNlcm5hbWU6');
          }
          return reply('504 5.5.4 Unrecognized authentication type');
        }
        case 'MAIL': {
          if (!clientName) return reply('503 5.5.1 Say EHLO first');
          if (options.auth && !authenticatedAs) return reply('530 5.7.0 Authentication required');
          if (from) return reply('503 5.5.1 Nested MAIL command');
          const address = /^FROM:\s*<([^>]*)>/i.exec(argument)?.[1];
          if (address === undefined) return reply('501 5.5.4 Syntax: MAIL FROM:<address>');
          from = address;
          return reply('250 2.1.0 OK');
        }
        case 'RCPT': {
          if (from === undefined) return reply('503 5.5.1 Need MAIL before RCPT');
          const address = /^TO:\s*<([^>]+)>/i.exec(argument)?.[1];
          if (address === undefined) return reply('501 5.5.4 Syntax: RCPT TO:<address>');
          const refusal = options.refuseRecipient?.(address);
          if (refusal) return reply(refusal);
          to.push(address);
          return reply('250 2.1.5 OK');
        }
        case 'DATA':
          if (from === undefined) return reply('503 5.5.1 Need MAIL command');
          if (to.length === 0) return reply('554 5.5.1 No valid recipients');
          data = [];
          return reply('354 End data with <CR><LF>.<CR><LF>');
        case 'RSET':
          resetTransaction();
          return reply('250 2.0.0 OK');
        case 'NOOP':
          return reply('250 2.0.0 OK');
        case 'QUIT':
          reply(`221 2.0.0 ${hostName} closing connection`);
          socket.end();
          return;
        default:
          return reply('502 5.5.2 Command not recognized');
      }
    };

    socket.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end).replace(/\r$/, '');
        pending = pending.slice(end + 1);
        handleLine(line);
      }
    });
    reply(`220 ${hostName} ESMTP ready`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    commands,
    waitForMessage(match, timeoutMs = 15_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (message: ReceivedMessage) => {
            clearTimeout(timer);
            resolve(message);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(
            new Error(`no matching email within ${timeoutMs} ms (${messages.length} received)`),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface ParsedPart {
  headers: Record<string, string>;
  text: string | undefined;
  html: string | undefined;
}

/** Just enough MIME (RFC 2045-2047) to read what nodemailer sends. */
export function parseMessage(raw: string): ParsedPart {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] ??= decodeWords(line.slice(colon + 1).trim());
  }
  const contentType = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    let text: string | undefined;
    let html: string | undefined;
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = parseMessage(section.replace(/^\r\n/, '').replace(/\r\n$/, ''));
      text ??= part.text;
      html ??= part.html;
    }
    return { headers, text, html };
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding'] ?? '7bit');
  if (/^text\/html/i.test(contentType)) return { headers, text: undefined, html: decoded };
  return { headers, text: decoded, html: undefined };
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body.replace(/=\r\n/g, ''));
    default:
      return body;
  }
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`), adjacent ones joined. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
