import { once } from 'node:events';
import type { AddressInfo, Server } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerEnvelope } from 'smtp-server';
import { eventually } from './waiting.js';

/** One mail as the receiver got it, parsed. */
export interface ReceivedMail {
  receivedAt: Date;
  /** The envelope's MAIL FROM and RCPT TO (what the sender asked the server to deliver). */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The headers' From and To, as text. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/**
 * An SMTP server on 127.0.0.1 for tests: no authentication, no TLS, every mail accepted, parsed and
 * kept. `smtpUrl` is what a service's SMTP_URL takes.
 */
export class MailReceiver {
  readonly mails: ReceivedMail[] = [];
  private listeningPort = 0;
  /** Answers to give instead of accepting, one per mail, in order (e.g. a 451 to make the sender retry). */
  private refusals: string[] = [];

  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refusal = this.refusals.shift();
        if (refusal !== undefined) {
          callback(Object.assign(new Error(refusal), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks);
        this.parse(raw, session.envelope).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });

  private constructor() {}

  static async start(): Promise<MailReceiver> {
    const receiver = new MailReceiver();
    const listening = receiver.server.listen(0, '127.0.0.1') as Server;
    if (!listening.listening) await once(listening, 'listening');
    receiver.listeningPort = (listening.address() as AddressInfo).port;
    return receiver;
  }

  private async parse(raw: Buffer, envelope: SMTPServerEnvelope): Promise<void> {
    const parsed = await simpleParser(raw);
    const addresses = (value: AddressObject | AddressObject[] | undefined) =>
      value === undefined ? '' : Array.isArray(value) ? value.map((a) => a.text).join(', ') : value.text;
    this.mails.push({
      receivedAt: new Date(),
      envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
      envelopeTo: envelope.rcptTo.map((rcpt) => rcpt.address),
      from: parsed.from?.text ?? '',
      to: addresses(parsed.to),
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      raw: raw.toString('utf8'),
    });
  }

  get port(): number {
    return this.listeningPort;
  }

  /** smtp://127.0.0.1:<port> */
  get smtpUrl(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The next `count` mails are refused with a temporary failure (451) naming `reason`. */
  refuseNext(count: number, reason = 'try again later'): void {
    this.refusals.push(...Array.from({ length: count }, () => reason));
  }

  /** Waits until `predicate` matches `count` mails; returns them. */
  async waitFor(predicate: (mail: ReceivedMail) => boolean, count = 1, timeoutMs = 30_000): Promise<ReceivedMail[]> {
    return eventually(() => {
      const matching = this.mails.filter(predicate);
      if (matching.length < count)
        throw new Error(`saw ${matching.length} of ${count} matching mails (${this.mails.length} in all)`);
      return matching;
    }, timeoutMs);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
