import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { Mail } from './mail.entity.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Queues a mail in the unit of work of `tx`: it is sent only if the change that causes it commits,
 * and the relay sends it however often the request that caused it is retried.
 */
export function queueMail(tx: EntityManager, mail: OutgoingMail, now: Date): Mail {
  return tx.create(Mail, {
    id: randomUUID(),
    recipient: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    createdAt: now,
    sentAt: null,
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
  });
}
