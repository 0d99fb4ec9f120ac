import type { EntityManager } from '@mikro-orm/core';
import type { IHeaders } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import type { EventMeta } from '../consumer/apply-events.js';

/** A message the consumer could not decode, as it arrived. */
export interface UndecodableMessage extends EventMeta {
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders | undefined;
  /** Why it is not an event (decodeMessage). */
  error: string;
}

/** Headers as stored: each name with the values sent under it, in order, base64 (a header value is bytes). */
export type StoredHeaders = Record<string, string[]>;

/** A reason fits a text column whatever produced it: no NUL (PostgreSQL refuses it), bounded. */
export const storableText = (text: string, max = 2_000): string => {
  const clean = text.replaceAll('\u0000', '');
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
};

export function storedHeaders(headers: IHeaders | undefined): StoredHeaders {
  // fromEntries: a name such as `__proto__` stays a plain key. A NUL, which jsonb refuses in a key, is
  // replaced: the row must be writable whatever arrived, or the message would block its partition.
  return Object.fromEntries(
    Object.entries(headers ?? {}).flatMap(([name, value]) =>
      value === undefined
        ? []
        : [
            [
              name.replaceAll('\u0000', '\ufffd'),
              (Array.isArray(value) ? value : [value]).map((one) => Buffer.from(one).toString('base64')),
            ],
          ],
    ),
  );
}

/** Stored headers as kafkajs gives them, to continue the trace they carry when a retry applies the event. */
export function kafkaHeaders(stored: StoredHeaders): IHeaders {
  return Object.fromEntries(
    Object.entries(stored).map(([name, values]) => [name, values.map((one) => Buffer.from(one, 'base64'))]),
  );
}

export interface RecordedDeadLetter {
  message: UndecodableMessage;
  /** The new row's id; undefined when the group had recorded this message already (a redelivery). */
  id: string | undefined;
}

/**
 * Inserts a dead letter per message in the caller's transaction, once per (group, topic, partition,
 * offset): a redelivered message finds its row and adds none. `receivedAt` is the service's clock at
 * millisecond precision, the list's cursor position (decision 0018).
 */
export async function recordDeadLetters(
  em: EntityManager,
  consumer: string,
  messages: readonly UndecodableMessage[],
  receivedAt: Date,
): Promise<RecordedDeadLetter[]> {
  const recorded: RecordedDeadLetter[] = [];
  for (const message of messages) {
    const [row] = await em.getConnection().execute<{ id: string }[]>(
      `insert into dead_letter (id, consumer, topic, partition, message_offset, message_key, message_value, headers,
         error, received_at)
       values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)
       on conflict (consumer, topic, partition, message_offset) do nothing returning id`,
      [
        randomUUID(),
        consumer,
        message.topic,
        message.partition,
        message.offset,
        message.key,
        message.value,
        JSON.stringify(storedHeaders(message.headers)),
        storableText(message.error),
        receivedAt,
      ],
      'all',
      em.getTransactionContext(),
    );
    recorded.push({ message, id: row?.id });
  }
  return recorded;
}
