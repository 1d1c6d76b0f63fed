// A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed (mailparser), for the
// suites to read the mail docshelf sends.
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";
import type { AddressInfo } from "node:net";

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailbox {
  /** SMTP_URL for the system under test. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` (received from now on, or already waiting and not yet taken), within `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Mails to `to` received so far, taken or not. */
  count(to: string): number;
  stop(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(", ") : (parsed.to?.text ?? "");
          received.push({ to: to.toLowerCase(), from: parsed.from?.text ?? "", subject: parsed.subject ?? "", text: parsed.text ?? "", html: typeof parsed.html === "string" ? parsed.html : "" });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    count(to) {
      return received.filter((m) => m.to.includes(to.toLowerCase())).length;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's plain text that starts with `prefix` (a path of the instance). */
export function linkIn(mail: ReceivedMail, base: string, prefix: string): string {
  const match = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s]*)`).exec(mail.text);
  if (!match) throw new Error(`no ${prefix} link in: ${mail.text}`);
  return match[1];
}
