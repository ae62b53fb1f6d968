import nodemailer from 'nodemailer';
import type { EmailMessage, Mailer } from './mailer.ts';

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message: EmailMessage) {
      await transport.sendMail({ from, ...message });
    },
  };
}
