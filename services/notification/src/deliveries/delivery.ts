import type { Destination, RegisteredUrls } from '../events/webhook-events.js';
import { GONE, type Verdict } from '../health/url-health.js';
import type { SealedSigningSecrets } from '../secrets/webhook-secrets.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
/** listen: a copy `corridor listen` forwarded to a developer's machine, as it reported it (decision 0034). */
export type AttemptTrigger = 'scheduled' | 'replay' | 'mock' | 'listen';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

export const isDeliveryStatus = (value: string): value is DeliveryStatus =>
  (DELIVERY_STATUSES as readonly string[]).includes(value);

export interface Delivery {
  id: string;
  businessId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  destination: Destination;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  scheduledAttempts: number;
  nextAttemptAt: Date | null;
  replayRequestedAt: Date | null;
  leaseUntil: Date | null;
  mock: boolean;
  /** The event's number in its business's sequence (decision 0067); null for a mock. */
  sequence: number | null;
  /** Why no attempt is due: its URL is disabled, or was enabled without replay (decision 0068). */
  skippedReason: 'endpoint_disabled' | null;
  traceContext: Record<string, string>;
  eventOccurredAt: Date;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/**
 * in_flight: started, no answer recorded yet; interrupted: its process stopped before the answer
 * was recorded (closed when its lease lapsed). The others are the answer (decision 0010).
 */
export type AttemptOutcome = 'in_flight' | 'succeeded' | 'failed' | 'interrupted';

export interface Attempt {
  number: number;
  trigger: AttemptTrigger;
  startedAt: Date;
  /** null while in flight and when interrupted: no answer ended it. */
  durationMs: number | null;
  outcome: AttemptOutcome;
  statusCode: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  responseBody: string | null;
}

/** An attempt closed `interrupted` by a claim: its process stopped before recording the answer. */
export interface InterruptedAttempt {
  deliveryId: string;
  number: number;
  trigger: AttemptTrigger;
  eventType: string;
}

/** What the attempt log says of an attempt no process answered for (issue 18). */
export const INTERRUPTED_MESSAGE = 'the delivering process stopped before an answer was recorded';

/** What an answered attempt does to its delivery; undefined fields leave the delivery as it is. */
interface DeliveryChange {
  /** The status the delivery ends in (its completed_at is then the answer's time). */
  endsAs: 'succeeded' | 'failed' | undefined;
  /** A scheduled attempt spends one of the schedule's. */
  spendsScheduled: boolean;
  /** The next scheduled attempt, or null for none. */
  nextAttemptAt: Date | null | undefined;
  /** The queued replay it answered is done. */
  replayDone: boolean;
}

/**
 * Decision 0010: a success ends the delivery `succeeded`; a scheduled failure reschedules it or,
 * after the last (`nextAttemptAt` null), ends it `failed`, as a mock's one failure does; a
 * replay's failure changes nothing but the replay queue.
 */
export function changeAfterAttempt(
  trigger: AttemptTrigger,
  succeeded: boolean,
  nextAttemptAt: Date | null,
): DeliveryChange {
  const scheduled = trigger === 'scheduled';
  const failureCounts = trigger !== 'replay' && !succeeded;
  return {
    endsAs: succeeded ? 'succeeded' : failureCounts && nextAttemptAt === null ? 'failed' : undefined,
    spendsScheduled: scheduled,
    nextAttemptAt: succeeded ? null : scheduled ? nextAttemptAt : undefined,
    replayDone: trigger === 'replay',
  };
}

/**
 * What an answer says of its URL's health (decision 0068); undefined for a mock or a listener's copy,
 * which are no event's delivery to the URL.
 */
export function verdictOf(
  trigger: AttemptTrigger,
  result: { outcome: string; statusCode: number | null },
  nextAttemptAt: Date | null,
): Verdict | undefined {
  if (trigger === 'mock' || trigger === 'listen') return undefined;
  if (result.outcome === 'succeeded') return 'delivered';
  if (result.statusCode === GONE) return 'gone';
  return changeAfterAttempt(trigger, false, nextAttemptAt).endsAs === 'failed' ? 'failed_finally' : 'retrying';
}

/** A delivery a claim took, its attempt already recorded as started, and where that attempt goes. */
export interface ClaimedDelivery {
  delivery: Delivery;
  /** The attempt the claim started: its number in the delivery's log and why it is made. */
  attempt: { number: number; trigger: 'scheduled' | 'replay' };
  /** The registration as it is now: its URLs and sealed secret (decision 0010: the URL registered now). */
  endpoint: RegisteredUrls & SealedSigningSecrets;
  /** How far ahead of real time its business's sandbox clock is, read with the claim (decision 0069). */
  clockOffsetMs: number;
}
