import { sql } from '@corridor/db';
import type { Logger } from '@corridor/logging';
import type { Clock } from '@corridor/runtime';
import type { EntityManager } from '@mikro-orm/core';
import { createTransport, type Transporter } from 'nodemailer';

export interface MailRelaySettings {
  /** smtp:// or smtps:// URL of the server that takes identity's mails. */
  smtpUrl: string;
  from: string;
  now: Clock;
  logger: Logger;
  /** Mails claimed per round. */
  batchSize?: number;
  /** How long a claimed mail is left to the replica that claimed it before another may try it. */
  leaseMs?: number;
  /** Attempts before a mail is left unsent for good (its last_error says why). */
  maxAttempts?: number;
}

interface DueMail {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
}

/** 30 s, 1 min, 2 min … doubling up to an hour between attempts. */
export const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/**
 * Sends identity's mail outbox through SMTP. A round claims due mails with FOR UPDATE SKIP LOCKED
 * and leases them (next_attempt_at moves past the send), so replicas never send one mail twice
 * while they run; a replica that dies mid-send leaves its mails to be sent again after the lease.
 */
export class MailRelay {
  private readonly transport: Transporter;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;

  constructor(private readonly settings: MailRelaySettings) {
    this.transport = createTransport(settings.smtpUrl);
    this.batchSize = settings.batchSize ?? 20;
    this.leaseMs = settings.leaseMs ?? 60_000;
    this.maxAttempts = settings.maxAttempts ?? 12;
  }

  /** Claims one batch of due mails and leases them; each claim counts as an attempt. */
  private async claimDue(em: EntityManager): Promise<DueMail[]> {
    const now = this.settings.now();
    return sql<DueMail>(
      em,
      `update mail set attempts = attempts + 1, next_attempt_at = ?
        where id in (
          select id from mail
           where sent_at is null and next_attempt_at <= ? and attempts < ?
           order by next_attempt_at
           limit ? for update skip locked)
        returning id, recipient, subject, text, html, attempts`,
      [new Date(now.getTime() + this.leaseMs), now, this.maxAttempts, this.batchSize],
    );
  }

  /** Sends every due mail, batch after batch; returns how many were sent. */
  async sendDue(em: EntityManager, signal?: AbortSignal): Promise<number> {
    let sent = 0;
    while (!signal?.aborted) {
      const due = await this.claimDue(em);
      for (const mail of due) if (await this.send(em, mail)) sent += 1;
      if (due.length < this.batchSize) break;
    }
    return sent;
  }

  private async send(em: EntityManager, mail: DueMail): Promise<boolean> {
    try {
      await this.transport.sendMail({
        from: this.settings.from,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await sql(em, `update mail set sent_at = ?, last_error = null where id = ?`, [this.settings.now(), mail.id]);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = new Date(this.settings.now().getTime() + retryDelayMs(mail.attempts));
      await sql(em, `update mail set next_attempt_at = ?, last_error = ? where id = ?`, [
        retryAt,
        message.slice(0, 1_000),
        mail.id,
      ]);
      this.settings.logger.warn(
        { mailId: mail.id, attempts: mail.attempts, retryAt: retryAt.toISOString(), err: error },
        mail.attempts >= this.maxAttempts ? 'mail not sent; giving up' : 'mail not sent; will retry',
      );
      return false;
    }
  }

  close(): void {
    this.transport.close();
  }
}
