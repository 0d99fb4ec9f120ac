import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** identity's mail outbox: written with the change that causes the mail, sent by the mail relay. */
export const Mail = defineEntity({
  name: 'Mail',
  tableName: 'mail',
  properties: {
    id: p.uuid().primary(),
    recipient: p.text(),
    subject: p.text(),
    text: p.text(),
    html: p.text(),
    createdAt: p.datetime(),
    sentAt: p.datetime().nullable(),
    attempts: p.integer(),
    nextAttemptAt: p.datetime(),
    lastError: p.text().nullable(),
  },
});
export type Mail = InferEntity<typeof Mail>;
