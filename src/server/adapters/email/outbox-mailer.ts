import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { EmailMessage, Mailer } from './mailer.ts';

/** Embedded mode: messages land in `./data/outbox` (one JSON file each) and in the log. */
export function createOutboxMailer(dir: string, from: string, log: FastifyBaseLogger): Mailer {
  return {
    async send(message: EmailMessage) {
      await mkdir(dir, { recursive: true });
      const sentAt = new Date().toISOString();
      const file = path.join(
        dir,
        `${sentAt.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`,
      );
      // Write beside it, then rename: whoever watches the outbox never reads half a message.
      await writeFile(`${file}.partial`, JSON.stringify({ from, ...message, sentAt }, null, 2));
      await rename(`${file}.partial`, file);
      log.info({ to: message.to, subject: message.subject, file }, 'email written to the outbox');
    },
  };
}
