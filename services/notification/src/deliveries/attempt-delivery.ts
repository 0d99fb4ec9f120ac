import { traceContextFromCarrier } from '@corridor/bus';
import type { Logger } from '@corridor/logging';
import type { Clock } from '@corridor/runtime';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { EntityManager } from '@mikro-orm/core';
import { urlOf } from '../events/webhook-events.js';
import { recordVerdicts } from '../health/record-verdicts.js';
import { GONE, type HealthRules } from '../health/url-health.js';
import { attemptsCounter, deliveryLatency } from '../metrics.js';
import type { WebhookSecrets } from '../secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { DeliveryRepository, type AttemptAnswer } from './delivery-repository.js';
import type { ClaimedDelivery } from './delivery.js';
import { verdictOf, type Attempt, type AttemptTrigger, type Delivery, type InterruptedAttempt } from './delivery.js';
import { nextAttemptAt } from './schedule.js';
import type { AttemptResult, WebhookSender } from './send-webhook.js';

/** What making an attempt needs, whoever asks for it (the worker, a replay, the mock trigger). */
export interface DeliveryRuntime {
  sender: WebhookSender;
  secrets: WebhookSecrets;
  /** Delay before each scheduled attempt (WEBHOOK_RETRY_SCHEDULE_MS). */
  scheduleMs: readonly number[];
  /**
   * How long a claim (and the attempt made under it) holds: longer than an attempt can take, so one
   * still open after it is known dead.
   */
  leaseMs: number;
  /** Real time: signing times, leases and answers. */
  now: Clock;
  /** A business's time (its sandbox clock's copy, decision 0069): the retry ladder counts in it. */
  businessNow: (businessId: string) => Promise<Date>;
  /** Which pending deliveries are due now, each by its business's time (BusinessClock.due over `d`). */
  due: () => { sql: string; params: unknown[] };
  logger: Logger;
  /** When a failing URL is disabled (WEBHOOK_DISABLE_AFTER_MS, _EVENTS; decision 0068). */
  health: HealthRules;
}

const tracer = trace.getTracer('@corridor/notification');

export interface SignedRequest {
  url: string;
  /** The secrets in force, newest first (decision 0065). */
  secret: readonly string[];
}

/** The URL the delivery goes to now and the secret that signs it; undefined when the registration is gone. */
export async function requestFor(
  em: EntityManager,
  secrets: WebhookSecrets,
  delivery: Pick<Delivery, 'endpointId' | 'destination'>,
  now: Date,
): Promise<SignedRequest | undefined> {
  const endpoint = await em.findOne(WebhookEndpoint, { id: delivery.endpointId });
  if (!endpoint) return undefined;
  return {
    url: urlOf(delivery.destination, endpoint),
    secret: secrets.inForce(endpoint, endpoint.id, now),
  };
}

/** Counts the attempt and, for a confirmed event delivery, its latency from the event's commit. */
export function observeAttempt(delivery: Delivery, trigger: AttemptTrigger, result: AttemptResult): void {
  attemptsCounter.add(1, {
    outcome: result.outcome,
    trigger,
    error_class: result.errorClass ?? 'none',
    event: delivery.eventType,
  });
  if (result.outcome === 'succeeded' && !delivery.mock && delivery.status !== 'succeeded') {
    const seconds = (result.startedAt.getTime() + result.durationMs - delivery.eventOccurredAt.getTime()) / 1000;
    deliveryLatency.record(Math.max(0, seconds), { event: delivery.eventType });
  }
}

/** Counts an attempt a claim closed because its process stopped before recording the answer. */
export function observeInterrupted(attempt: InterruptedAttempt): void {
  attemptsCounter.add(1, {
    outcome: 'interrupted',
    trigger: attempt.trigger,
    error_class: 'interrupted',
    event: attempt.eventType,
  });
}

/** An answer as made: `judgedAt` is the business's time when it failed (decision 0069), else real time. */
export type Answer = AttemptAnswer & { number: number; judgedAt: Date };

/**
 * One attempt of a stored delivery, recorded as it starts and completed with its consequence
 * (decision 0010), in the trace of the request that caused the event: the span's parent is the
 * context stored with the delivery. `start` records the attempt (or a claim already has) and names
 * where it goes; `finish` records the answer; `businessNow` is the business's time when real time
 * is `now` (decision 0069).
 */
function attemptInSpan<Recorded>(
  runtime: DeliveryRuntime,
  delivery: Delivery,
  trigger: Exclude<AttemptTrigger, 'mock' | 'listen'>,
  businessNow: (now: Date) => Date | Promise<Date>,
  start: () => Promise<{ number: number; request: SignedRequest }>,
  finish: (answer: Answer) => Promise<Recorded>,
): Promise<{ recorded: Recorded; number: number; result: AttemptResult }> {
  return tracer.startActiveSpan(
    'webhook deliver',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'corridor.webhook.delivery_id': delivery.id,
        'corridor.webhook.event': delivery.eventType,
        'corridor.webhook.trigger': trigger,
        'corridor.business_id': delivery.businessId,
      },
    },
    traceContextFromCarrier(delivery.traceContext),
    async (span) => {
      try {
        const { number, request } = await start();
        span.setAttribute('corridor.webhook.attempt', number);
        const result = await runtime.sender.send({
          ...request,
          body: delivery.body,
          webhookId: delivery.id,
          sequence: delivery.sequence ?? undefined,
        });
        const now = runtime.now();
        // A failure is judged in the business's time (decision 0069): its ladder, and its URL's health
        // (decision 0068). A success needs no time of it, so no read.
        const judgedAt = result.outcome === 'failed' ? await businessNow(now) : now;
        // A 410 ends the delivery at once: the receiver asked not to be called again (decision 0068).
        const scheduledFailure = trigger === 'scheduled' && result.outcome === 'failed' && result.statusCode !== GONE;
        const recorded = await finish({
          deliveryId: delivery.id,
          number,
          trigger,
          result,
          nextAttemptAt: scheduledFailure
            ? nextAttemptAt(runtime.scheduleMs, delivery.scheduledAttempts + 1, judgedAt)
            : null,
          now,
          judgedAt,
        });
        observeAttempt(delivery, trigger, result);
        span.setAttributes({
          'corridor.webhook.outcome': result.outcome,
          ...(result.statusCode === null ? {} : { 'http.response.status_code': result.statusCode }),
          ...(result.errorClass === null ? {} : { 'error.type': result.errorClass }),
        });
        if (result.outcome === 'failed')
          span.setStatus({ code: SpanStatusCode.ERROR, message: result.errorMessage ?? '' });
        return { recorded, number, result };
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * The attempt a claim started (the worker's): to the URL and with the secret the claim read, its
 * answer handed to `record`, which writes it with others' (issue 35).
 */
export async function attemptClaimed(
  runtime: DeliveryRuntime,
  { delivery, attempt, endpoint, clockOffsetMs }: ClaimedDelivery,
  record: (answer: Answer) => Promise<void>,
): Promise<{ number: number; result: AttemptResult }> {
  const request = {
    url: urlOf(delivery.destination, endpoint),
    secret: runtime.secrets.inForce(endpoint, delivery.endpointId, runtime.now()),
  };
  const { number, result } = await attemptInSpan(
    runtime,
    delivery,
    attempt.trigger,
    // The claim read the clock: no read between the answer and its record, where a crash costs most.
    (now) => new Date(now.getTime() + clockOffsetMs),
    () => Promise.resolve({ number: attempt.number, request }),
    record,
  );
  return { number, result };
}

/**
 * One attempt of a delivery no claim holds (a replay asked for through the API): recorded as it
 * starts, under a lease of its own, and as it ends, one statement each.
 */
export async function attemptDelivery(
  em: EntityManager,
  runtime: DeliveryRuntime,
  delivery: Delivery,
  trigger: Exclude<AttemptTrigger, 'mock' | 'listen'>,
): Promise<{ delivery: Delivery; attempt: Attempt }> {
  const deliveries = new DeliveryRepository(em);
  let answered: Answer | undefined;
  const { recorded } = await attemptInSpan(
    runtime,
    delivery,
    trigger,
    () => runtime.businessNow(delivery.businessId),
    async () => {
      const request = await requestFor(em, runtime.secrets, delivery, runtime.now());
      if (!request) throw new Error(`delivery ${delivery.id}: its webhook registration no longer exists`);
      const startedAt = runtime.now();
      const started = await deliveries.startAttempt({
        deliveryId: delivery.id,
        trigger,
        startedAt,
        leaseUntil: new Date(startedAt.getTime() + runtime.leaseMs),
      });
      return { number: started.number, request };
    },
    (answer) => {
      answered = answer;
      return deliveries.finishAttempt(answer);
    },
  );
  if (answered) await judgeUrls(em, runtime, [recorded.delivery], [answered]);
  return recorded;
}

/**
 * Each answer's verdict on its URL's health (decision 0068), after the answers are recorded. A
 * failure here loses verdicts, never answers: it is logged, and the URL is judged by the next ones.
 */
export async function judgeUrls(
  em: EntityManager,
  runtime: Pick<DeliveryRuntime, 'health' | 'logger'>,
  deliveries: readonly Delivery[],
  answers: readonly Pick<Answer, 'deliveryId' | 'trigger' | 'result' | 'nextAttemptAt' | 'now' | 'judgedAt'>[],
): Promise<void> {
  const byId = new Map(deliveries.map((delivery) => [delivery.id, delivery]));
  const verdicts = answers.flatMap(({ deliveryId, trigger, result, nextAttemptAt, now, judgedAt }) => {
    const delivery = byId.get(deliveryId);
    const verdict = verdictOf(trigger, result, nextAttemptAt ?? null);
    return delivery && verdict && !delivery.mock
      ? [{ endpointId: delivery.endpointId, urlKind: delivery.destination, verdict, judgedAt, now }]
      : [];
  });
  try {
    await recordVerdicts(em, runtime.health, verdicts);
  } catch (error) {
    runtime.logger.error({ err: error }, 'endpoint health not judged for a batch of webhook answers');
  }
}
