import { RetryOutcome } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { failedPrecondition } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { applyEvents, type EventApplication } from '../consumer/apply-events.js';
import { decodeMessage } from '../consumer/decode-message.js';
import type { Event } from '@corridor/contracts/events';
import {
  DEAD_LETTER_COLUMNS,
  deadLetterNotFound,
  toDeadLetterMessage,
  type DeadLetterMessage,
  type DeadLetterRow,
} from './read.js';
import { kafkaHeaders, storableText } from './record.js';

/** How the consumer applies an event: the same group, handler and wake-up a retry must use. */
export interface DeadLetterRetry extends EventApplication {
  /** The service's clock: last_retried_at and resolved_at. */
  now?: () => Date;
  /** Called once a retry's transaction has committed an applied event, as the consumer's onApplied. */
  onApplied?: (event: Event) => void;
}

export interface RetriedDeadLetter {
  deadLetter: DeadLetterMessage;
  outcome: RetryOutcome;
}

type Attempt =
  | { outcome: RetryOutcome; row: DeadLetterRow; applied?: Event }
  | { outcome: 'undecodable'; row: DeadLetterRow; error: string };

/** The handler's failure inside a retry, told apart from the retry's own refusals. */
class ApplyFailed extends Error {
  constructor(readonly handlerError: unknown) {
    super(handlerError instanceof Error ? handlerError.message : String(handlerError));
  }
}

const execute = (em: EntityManager, statement: string, params: unknown[]) =>
  em.getConnection().execute<DeadLetterRow[]>(statement, params, 'all', em.getTransactionContext());

/** Counts one more attempt that did not resolve the dead letter, and why. */
const recordFailure = (em: EntityManager, id: string, at: Date, error: string) =>
  execute(
    em,
    `update dead_letter set retry_count = retry_count + 1, last_retried_at = ?, last_retry_error = ?
     where id = ? returning ${DEAD_LETTER_COLUMNS}`,
    [at, storableText(error), id],
  );

/**
 * Reads a dead letter's stored value again with the running code (decision 0023). If it now decodes,
 * the event is applied as the consumer would apply it, in one transaction with the row locked: marked
 * processed for the group (a copy the consumer applied already runs nothing), the handler, the row
 * resolved. If it still does not decode, the attempt is recorded and the call fails
 * FAILED_PRECONDITION naming why. A resolved dead letter is answered unchanged (retrying is idempotent).
 */
export async function retryDeadLetter(
  em: EntityManager,
  application: DeadLetterRetry,
  id: string,
): Promise<RetriedDeadLetter> {
  if (!isUuid(id)) throw deadLetterNotFound(id);
  const at = application.now?.() ?? new Date();
  let attempt: Attempt;
  try {
    attempt = await em.fork().transactional(async (tx) => {
      // Locked: a second retry of the same row waits, then finds it resolved.
      const [row] = await execute(tx, `select ${DEAD_LETTER_COLUMNS} from dead_letter where id = ? for update`, [id]);
      if (!row) throw deadLetterNotFound(id);
      if (row.resolved_at !== null) return { outcome: RetryOutcome.ALREADY_RESOLVED, row };
      if (row.consumer !== application.groupId) {
        // Its event ids were never deduplicated in this group's namespace: applying it here could repeat an effect.
        throw failedPrecondition(
          'DEAD_LETTER_OF_ANOTHER_CONSUMER',
          `dead letter ${id} was received by consumer group ${row.consumer}; this service consumes as ${application.groupId}`,
        );
      }
      const decoded = decodeMessage(row.message_value ?? null);
      if (!decoded.ok) {
        const [failed] = await recordFailure(tx, id, at, decoded.error);
        return { outcome: 'undecodable', row: failed ?? row, error: decoded.error };
      }
      const received = {
        event: decoded.event,
        meta: { topic: row.topic, partition: row.partition, offset: row.message_offset },
        headers: kafkaHeaders(row.headers ?? {}),
      };
      const applied = await applyEvents(tx, application, [received]).catch((error: unknown) => {
        throw new ApplyFailed(error);
      });
      const [resolved] = await execute(
        tx,
        `update dead_letter set retry_count = retry_count + 1, last_retried_at = ?, last_retry_error = null,
           resolved_at = ?, event_id = ?
         where id = ? returning ${DEAD_LETTER_COLUMNS}`,
        [at, at, decoded.event.id, id],
      );
      return applied.length > 0
        ? { outcome: RetryOutcome.APPLIED, row: resolved ?? row, applied: decoded.event }
        : { outcome: RetryOutcome.ALREADY_APPLIED, row: resolved ?? row };
    });
  } catch (error) {
    if (!(error instanceof ApplyFailed)) throw error;
    // The handler's writes rolled back with the transaction; the attempt itself is still worth knowing.
    await recordFailure(em.fork(), id, at, `decoded, but the handler failed: ${error.message}`).catch(
      (recording: unknown) =>
        application.logger.error({ err: recording, deadLetterId: id }, 'could not record a failed dead letter retry'),
    );
    application.logger.error(
      { err: error.handlerError, deadLetterId: id },
      'dead letter decoded but its handler failed',
    );
    throw error.handlerError;
  }
  if (attempt.outcome === 'undecodable') {
    application.logger.warn({ deadLetterId: id, error: attempt.error }, 'dead letter retried: still undecodable');
    throw failedPrecondition('DEAD_LETTER_UNDECODABLE', `dead letter ${id} still cannot be decoded: ${attempt.error}`);
  }
  if (attempt.applied) {
    application.logger.info({ deadLetterId: id, eventId: attempt.applied.id }, 'dead letter retried: event applied');
    application.onApplied?.(attempt.applied);
  }
  return { deadLetter: toDeadLetterMessage(attempt.row), outcome: attempt.outcome };
}
