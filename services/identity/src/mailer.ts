// Email identity sends (reset, sign-in and setup links): through SMTP_URL with nodemailer, plain text and
// HTML; without SMTP_URL nothing is sent and the link is logged for the administrator to pass on.
import { createTransport, type Transporter } from "nodemailer";

export interface Mail {
  to: string;
  subject: string;
  /** The paragraphs of the message, plain text. */
  lines: string[];
  /** The link the message is about. */
  link: { url: string; label: string };
}

export interface Mailer {
  /** Sends (or logs) the mail; never throws: a failure is logged. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

interface Log {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderMail(mail: Mail): { text: string; html: string } {
  const text = `${mail.lines.join("\n\n")}\n\n${mail.link.label}: ${mail.link.url}\n`;
  const html = `<!doctype html><html><body>${mail.lines.map((l) => `<p>${escape(l)}</p>`).join("")}<p><a href="${escape(mail.link.url)}">${escape(mail.link.label)}</a></p><p style="color:#666">${escape(mail.link.url)}</p></body></html>`;
  return { text, html };
}

export function createMailer(smtpUrl: string, from: string, log: Log): Mailer {
  if (!smtpUrl) {
    return {
      async send(mail) {
        // No SMTP server: the administrator reads the link here and passes it on (README "Email").
        log.warn(`email not sent (SMTP_URL is unset): to ${mail.to}, "${mail.subject}": ${mail.link.url}`);
      },
      close() {},
    };
  }
  const transport: Transporter = createTransport(smtpUrl, { from });
  return {
    async send(mail) {
      const { text, html } = renderMail(mail);
      try {
        // A subject holds an organization's title: control characters (line breaks) become spaces.
        await transport.sendMail({ to: mail.to, subject: mail.subject.replace(/[\u0000-\u001f\u007f]+/g, " "), text, html });
      } catch (err) {
        log.warn({ err: { message: err instanceof Error ? err.message : String(err) } }, `email to ${mail.to} ("${mail.subject}") could not be sent`);
      }
    },
    close() {
      transport.close();
    },
  };
}
