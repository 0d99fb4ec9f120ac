import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  DeadLetterStatus,
  type DeadLetterSchema,
  type ListDeadLettersResponseSchema,
} from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { keysetPage, keysetRead } from '@corridor/pagination';
import type { EntityManager } from '@mikro-orm/core';
import type { StoredHeaders } from './record.js';

export type DeadLetterMessage = MessageInitShape<typeof DeadLetterSchema>;

/** A dead_letter row as selected by DEAD_LETTER_COLUMNS (raw bytes only when asked for). */
export interface DeadLetterRow {
  id: string;
  consumer: string;
  topic: string;
  partition: number;
  message_offset: string;
  message_key?: Buffer | null;
  message_value?: Buffer | null;
  value_size: number | null;
  headers?: StoredHeaders;
  error: string;
  received_at: Date | string;
  retry_count: number;
  last_retried_at: Date | string | null;
  last_retry_error: string | null;
  resolved_at: Date | string | null;
  event_id: string | null;
}

/** Every column but the raw bytes, which a page of megabyte messages would not fit in one answer. */
const LISTED_COLUMNS = `id, consumer, topic, partition, message_offset, octet_length(message_value) as value_size,
  error, received_at, retry_count, last_retried_at, last_retry_error, resolved_at, event_id`;
export const DEAD_LETTER_COLUMNS = `${LISTED_COLUMNS}, message_key, message_value, headers`;

const dateOf = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const timestampOf = (value: Date | string | null) => (value === null ? undefined : timestampFromDate(dateOf(value)));

export const deadLetterNotFound = (id: string) => notFound('DEAD_LETTER_NOT_FOUND', `dead letter ${id} not found`);

/** A row as the API shows it; key, value and headers only when the row was read with them. */
export function toDeadLetterMessage(row: DeadLetterRow): DeadLetterMessage {
  return {
    id: row.id,
    consumer: row.consumer,
    topic: row.topic,
    partition: row.partition,
    offset: BigInt(row.message_offset),
    ...(row.message_key ? { key: row.message_key } : {}),
    ...(row.message_value ? { value: row.message_value } : {}),
    valueSize: row.value_size ?? 0,
    headers: Object.entries(row.headers ?? {}).flatMap(([name, values]) =>
      values.map((value) => ({ name, value: Buffer.from(value, 'base64') })),
    ),
    error: row.error,
    receivedAt: timestampOf(row.received_at),
    status: row.resolved_at === null ? DeadLetterStatus.UNRESOLVED : DeadLetterStatus.RESOLVED,
    retryCount: row.retry_count,
    lastRetriedAt: timestampOf(row.last_retried_at),
    lastRetryError: row.last_retry_error ?? '',
    resolvedAt: timestampOf(row.resolved_at),
    eventId: row.event_id ?? '',
  };
}

/** ListDeadLettersRequest, or the same from a test or a tool. */
export interface DeadLetterListRequest {
  /** UNSPECIFIED or absent: every dead letter. */
  status?: DeadLetterStatus;
  cursorPage?: { cursor: string; limit: number } | undefined;
}

const STATUS_CONDITIONS: Partial<Record<DeadLetterStatus, string>> = {
  [DeadLetterStatus.UNRESOLVED]: 'resolved_at is null',
  [DeadLetterStatus.RESOLVED]: 'resolved_at is not null',
};

/**
 * The service's dead letters, newest first on (received_at, id), one cursor page (decision 0018),
 * optionally only the unresolved or the resolved ones. Each page seeks on an index ending in the
 * list's order (dead_letter_received_idx, dead_letter_unresolved_idx).
 */
export async function listDeadLetters(
  em: EntityManager,
  request: DeadLetterListRequest,
): Promise<MessageInitShape<typeof ListDeadLettersResponseSchema>> {
  const status = request.status ?? DeadLetterStatus.UNSPECIFIED;
  if (status !== DeadLetterStatus.UNSPECIFIED && !STATUS_CONDITIONS[status]) {
    throw invalidArgument('status must be unresolved or resolved (or absent for every dead letter)', {
      status: ['must be unresolved or resolved'],
    });
  }
  const read = keysetRead(request.cursorPage);
  const newer = read.cursor?.direction === 'newer';
  const conditions: string[] = [];
  const statusCondition = STATUS_CONDITIONS[status];
  if (statusCondition) conditions.push(statusCondition);
  // keysetRead's seek names created_at; a dead letter's position is when it was received.
  if (read.cursor) conditions.push(`(received_at, id) ${newer ? '>' : '<'} (?, ?)`);
  const rows: DeadLetterRow[] = await em.getConnection().execute(
    `select ${LISTED_COLUMNS} from dead_letter
     ${conditions.length > 0 ? `where ${conditions.join(' and ')}` : ''}
     order by ${newer ? 'received_at asc, id asc' : 'received_at desc, id desc'}
     limit ?`,
    [...read.seekParams, read.limit + 1],
    'all',
  );
  const page = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.received_at), id: row.id }));
  return {
    deadLetters: page.rows.map(toDeadLetterMessage),
    cursorPage: { nextCursor: page.nextCursor, previousCursor: page.previousCursor, limit: page.limit },
  };
}

/** One dead letter with its raw key, value and headers; NOT_FOUND for an id no row has. */
export async function getDeadLetter(em: EntityManager, id: string): Promise<DeadLetterMessage> {
  const [row] = isUuid(id)
    ? await em
        .getConnection()
        .execute<DeadLetterRow[]>(`select ${DEAD_LETTER_COLUMNS} from dead_letter where id = ?`, [id], 'all')
    : [];
  if (!row) throw deadLetterNotFound(id);
  return toDeadLetterMessage(row);
}
