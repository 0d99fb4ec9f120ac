import { createTestCertificates, eventually, OtlpReceiver, type TestCertificates } from '@corridor/testing';
import { Platform } from '../support/platform.js';
import {
  expectedSignature,
  gapsBetween,
  lateSlackMs,
  metricSum,
  type MetricSample,
  notificationMetrics,
  ReceivingBusiness,
  receiverEnv,
  sleep,
} from '../support/receiving-business.js';
import type { DeliveryWithAttemptsJson } from '../support/webhooks.js';

/** Seed 6.4 rule 4's schedule (0, 1 min, 5 min, 15 min, 1 h) scaled to milliseconds, each delay distinct. */
const SCHEDULE = [0, 400, 800, 1200, 1600];
/** The whole-attempt limit (seed 6.4 rule 6's 30 s, scaled): a hanging receiver is given up after it. */
const TIMEOUT_MS = 6_000;
/**
 * Slack on a quiet 2-CPU host, stretched by the load (lateSlackMs): a scheduled attempt may come this
 * much later than due, never earlier.
 */
const LATE_MS = 3_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// OTLP's span kinds.
const SERVER = 2;

/**
 * What it tolerates (issue 37): a loaded machine. No attempt may come before it is due and the
 * whole-attempt limit is never cut short (exact); how late an attempt may come is LATE_MS on a quiet
 * host, stretched by the load (lateSlackMs). Waits are in quiet-machine time.
 */
describe('webhooks: signed delivery, retries and fairness (seed 6.4; decision 0010; issue 5)', () => {
  const collector = new OtlpReceiver();
  let certificates: TestCertificates;
  let platform: Platform;
  const businesses: ReceivingBusiness[] = [];
  const webhooks = () => platform.webhooks;

  /** A business with its own receiver, registered (with kyc_url unless told otherwise). */
  const business = async (options: { kycUrl?: boolean } = {}) => {
    const created = await ReceivingBusiness.create(platform, certificates, options);
    businesses.push(created);
    return created;
  };

  /** The delivery once it is no longer pending. */
  const ended = (owner: ReceivingBusiness, id: string) =>
    webhooks().deliveryWhen(owner.token, id, (delivery) => delivery.status !== 'pending');

  const attemptSummary = (delivery: DeliveryWithAttemptsJson) =>
    delivery.attempts.map(({ number, trigger, outcome, status_code, error_class }) => ({
      number,
      trigger,
      outcome,
      status_code,
      error_class,
    }));

  beforeAll(async () => {
    [certificates] = await Promise.all([createTestCertificates(), collector.start()]);
    platform = new Platform({
      otlpEndpoint: collector.endpoint,
      notificationEnv: { ...receiverEnv(certificates, SCHEDULE), WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    await platform.start();
  });
  afterAll(async () => {
    await Promise.all(businesses.map((owner) => owner.stop()));
    await platform?.stop();
    await collector.stop();
  });

  it('issue 5 done-when 1, seed 6.1 + 6.4, decision 0009: a submit makes exactly one signed customer.status_changed webhook, to kyc_url when registered, else collection_url', async () => {
    const [withKyc, withoutKyc] = await Promise.all([business(), business({ kycUrl: false })]);
    const [readyWith, readyWithout] = await Promise.all([withKyc.readyCustomer(), withoutKyc.readyCustomer()]);
    const cases = await Promise.all([
      withKyc.submit(readyWith.id).then((submitted) => ({ owner: withKyc, ...submitted, path: '/kyc' })),
      withoutKyc
        .submit(readyWithout.id)
        .then((submitted) => ({ owner: withoutKyc, ...submitted, path: '/collection' })),
    ]);

    for (const { owner, customerId, submittedAt, path } of cases) {
      const [request] = await owner.waitForCustomer(customerId);
      if (!request) throw new Error('no webhook');
      expect({ method: request.method, path: request.path }).toEqual({ method: 'POST', path });
      // Verified by @corridor/webhook-signature in the receiver, and recomputed here independently.
      expect({ verified: request.verified, error: request.verificationError }).toEqual({
        verified: true,
        error: undefined,
      });
      expect(request.headers['x-corridor-signature']).toBe(expectedSignature(owner.secret, request));
      expect(request.headers['content-type']).toMatch(/^application\/json\b/);
      expect(request.headers['user-agent']).toBe('Corridor-Webhooks/1.0');
      const timestamp = request.headers['x-corridor-timestamp'] ?? '';
      expect(timestamp).toMatch(/^\d+$/);
      expect(Math.abs(Number(timestamp) - request.receivedAt.getTime() / 1000)).toBeLessThanOrEqual(300);
      expect(request.webhookId).toMatch(UUID);
      // Decision 0010: exactly {event, data}, data exactly the documented members.
      expect(JSON.parse(request.rawBody)).toEqual({
        event: 'customer.status_changed',
        data: {
          customer_id: customerId,
          business_id: owner.businessId,
          customer_type: 'business',
          kyb_scope: 'MINIMAL',
          old_status: 'PENDING',
          new_status: 'PROCESSING',
          changed_at: expect.any(String),
        },
      });
      const changedAt = Date.parse((request.json as { data: { changed_at: string } }).data.changed_at);
      expect(Math.abs(changedAt - submittedAt)).toBeLessThan(60_000);

      // The attempt log: the delivery in the list, succeeded with one attempt.
      const listed = await eventually(async () => {
        const page = await webhooks().deliveries(owner.token);
        const found = page.data.find((delivery) => delivery.id === request.webhookId);
        if (found?.status !== 'succeeded') throw new Error(`not succeeded yet: ${JSON.stringify(page.data)}`);
        return page;
      });
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0]).toMatchObject({
        id: request.webhookId,
        event_id: expect.stringMatching(UUID),
        event: 'customer.status_changed',
        destination: path === '/kyc' ? 'kyc_url' : 'collection_url',
        url: owner.receiver.url(path),
        status: 'succeeded',
        attempt_count: 1,
        next_attempt_at: null,
        mock: false,
        payload: JSON.parse(request.rawBody),
      });
      const delivery = await webhooks().delivery(owner.token, request.webhookId ?? '');
      expect(attemptSummary(delivery)).toEqual([
        { number: 1, trigger: 'scheduled', outcome: 'succeeded', status_code: 200, error_class: null },
      ]);
    }

    // Exactly one: nothing more arrives once a retry would have been due.
    await sleep(SCHEDULE[1]! + 1_500);
    expect(cases.map(({ owner }) => owner.receiver.requests.length)).toEqual([1, 1]);
  });

  it('issue 5 done-when 2, seed 6.4 rules 3-4: four failures then a 200: the fifth attempt comes on the scaled schedule and the delivery ends succeeded with five attempts logged', async () => {
    const owner = await business();
    owner.receiver.respondWith([1, 2, 3, 4].map((n) => ({ status: 500, body: `failure ${n}` })));
    const { customerId } = await owner.submitNew();

    const requests = await owner.waitForCustomer(customerId, 5, 30_000);
    // Seed 6.4 rule 5: one webhook id on every attempt, each freshly signed and verifiable.
    expect(new Set(requests.map((request) => request.webhookId)).size).toBe(1);
    expect(requests.every((request) => request.verified)).toBe(true);
    expect(new Set(requests.map((request) => request.rawBody)).size).toBe(1);
    // Each gap is at least its delay (never early) and not much more (on schedule).
    const gaps = gapsBetween(requests);
    const late = lateSlackMs(LATE_MS);
    gaps.forEach((gap, index) => {
      const delay = SCHEDULE[index + 1]!;
      expect({ attempt: index + 2, gap, early: gap < delay - 50, late: gap > delay + late }).toEqual({
        attempt: index + 2,
        gap,
        early: false,
        late: false,
      });
    });

    const delivery = await ended(owner, requests[0]?.webhookId ?? '');
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 5, next_attempt_at: null });
    expect(attemptSummary(delivery)).toEqual([
      ...[1, 2, 3, 4].map((number) => ({
        number,
        trigger: 'scheduled',
        outcome: 'failed',
        status_code: 500,
        error_class: 'http_status',
      })),
      { number: 5, trigger: 'scheduled', outcome: 'succeeded', status_code: 200, error_class: null },
    ]);
    // The receiver's replies are logged, and the attempts' start times keep the schedule too.
    expect(delivery.attempts.slice(0, 4).map((attempt) => attempt.response_body)).toEqual([
      'failure 1',
      'failure 2',
      'failure 3',
      'failure 4',
    ]);
    const started = delivery.attempts.map((attempt) => Date.parse(attempt.started_at));
    started
      .slice(1)
      .forEach((at, index) => expect(at - started[index]!).toBeGreaterThanOrEqual(SCHEDULE[index + 1]! - 50));

    await sleep(SCHEDULE[4]! + 1_000);
    expect(owner.receiver.requests).toHaveLength(5);
  });

  it('issue 5 done-when 3, seed 6.4 rule 4: five failures end the delivery failed, and no sixth attempt comes', async () => {
    const owner = await business();
    // A long reply: the log keeps its first 4 KiB (decision 0010).
    const reply = `${'x'.repeat(5_000)}${'y'.repeat(5_000)}`;
    owner.receiver.respondWith(() => ({ status: 500, body: reply }));
    const { customerId } = await owner.submitNew();

    const requests = await owner.waitForCustomer(customerId, 5, 30_000);
    const delivery = await ended(owner, requests[0]?.webhookId ?? '');
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 5, next_attempt_at: null });
    expect(attemptSummary(delivery)).toEqual(
      [1, 2, 3, 4, 5].map((number) => ({
        number,
        trigger: 'scheduled',
        outcome: 'failed',
        status_code: 500,
        error_class: 'http_status',
      })),
    );
    for (const attempt of delivery.attempts) {
      expect(attempt.response_body).toBe(reply.slice(0, 4_096));
    }

    // Past the longest delay after the fifth attempt: still five requests, the delivery still failed.
    await sleep(SCHEDULE[4]! + 1_500);
    expect(owner.receiver.requests).toHaveLength(5);
    expect(await webhooks().delivery(owner.token, delivery.id)).toMatchObject({ status: 'failed', attempt_count: 5 });
  });

  it('issue 5 build 4, decision 0010 fairness: a business whose receiver hangs holds at most 4 attempts; another business is delivered at once meanwhile', async () => {
    const [slow, prompt] = await Promise.all([business(), business()]);
    // The first four requests hang until notification gives up on them; every later one is answered.
    slow.receiver.respondWith((_request, index) => (index < 4 ? 'hang' : { status: 200 }));
    const [slowCustomers, promptCustomer] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, () => slow.readyCustomer())),
      prompt.readyCustomer(),
    ]);
    await Promise.all(slowCustomers.map((customer) => slow.submit(customer.id)));
    await slow.receiver.waitFor(() => true, 4, 20_000);

    const { submittedAt } = await prompt.submit(promptCustomer.id);
    const [arrived] = await prompt.waitForCustomer(promptCustomer.id, 1, 10_000);
    const arrivedAt = arrived?.receivedAt.getTime() ?? Infinity;
    // At once: well under the TIMEOUT_MS a delivery queued behind the hanging ones would wait.
    expect(arrivedAt - submittedAt).toBeLessThan(2_500);
    // Six webhooks were due to the slow receiver; four were in flight, the other two waited for a slot.
    expect(slow.receiver.requests.filter((request) => request.receivedAt.getTime() <= arrivedAt)).toHaveLength(4);

    // Once the hanging attempts time out, every slow delivery goes through.
    const deliveries = await eventually(
      async () => {
        const all = await webhooks().allDeliveries(slow.token);
        if (all.length !== 6 || all.some((delivery) => delivery.status !== 'succeeded'))
          throw new Error(`slow deliveries: ${all.map((delivery) => delivery.status).join(', ')}`);
        return all;
      },
      TIMEOUT_MS * 3,
      250,
    );
    const logs = await Promise.all(deliveries.map((delivery) => webhooks().delivery(slow.token, delivery.id)));
    const timedOut = logs.filter((log) => log.attempts[0]?.error_class === 'timeout');
    expect(timedOut).toHaveLength(4);
    for (const log of timedOut) {
      const [first, second] = log.attempts;
      expect(first).toMatchObject({ outcome: 'failed', status_code: null });
      expect(first?.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
      expect(first?.duration_ms).toBeLessThan(TIMEOUT_MS + lateSlackMs(LATE_MS));
      expect(second).toMatchObject({ number: 2, outcome: 'succeeded', status_code: 200 });
    }
  });

  it('issue 5 build 8: each attempt is a `webhook deliver` span in the trace of the submit request; /metrics counts attempts by outcome, latency, pending deliveries and consumer lag', async () => {
    const owner = await business();
    owner.receiver.respondWith(['hang']); // the first attempt times out, the retry is answered 200
    const attempts = /^corridor_webhook_attempts(_total)?$/;
    const before = await notificationMetrics(platform);
    const { customerId } = await owner.submitNew();
    await owner.waitForCustomer(customerId, 1);

    // While the first attempt hangs, the delivery is pending (observed at the scrape).
    const pending = /^corridor_webhook_pending_deliveries/;
    const during = await eventually(async () => {
      const samples = await notificationMetrics(platform);
      if (metricSum(samples, pending) < 1) throw new Error('pending gauge is not 1 or more yet');
      return samples;
    }, TIMEOUT_MS - 1_000);
    expect(during.some((sample) => pending.test(sample.name))).toBe(true);

    const [, retried] = await owner.waitForCustomer(customerId, 2, TIMEOUT_MS + 10_000);
    await ended(owner, retried?.webhookId ?? '');

    // One trace: the gateway's submit request span, and both attempts of the delivery in it.
    const { submit, delivers } = await eventually(() => {
      const submit = collector.spans.find(
        (span) =>
          span.service === 'gateway' &&
          span.kind === SERVER &&
          Object.values(span.attributes).some(
            (value) => typeof value === 'string' && value.includes(`/customer/${customerId}/submit`),
          ),
      );
      if (!submit) throw new Error('no gateway span of the submit request yet');
      const delivers = collector.spans.filter(
        (span) => span.traceId === submit.traceId && span.name === 'webhook deliver',
      );
      if (delivers.length < 2) throw new Error(`${delivers.length} webhook deliver spans in the submit's trace`);
      return { submit, delivers };
    }, 20_000);
    expect(delivers.map((span) => [span.service, span.traceId])).toEqual([
      ['notification', submit.traceId],
      ['notification', submit.traceId],
    ]);

    // Everything of this file has ended and been consumed: no pending delivery, no lag.
    const lagOf = (samples: MetricSample[]) =>
      samples.filter(
        (sample) =>
          /^corridor_webhook_consumer_lag/.test(sample.name) && sample.labels.topic === platform.customerTopic,
      );
    const after = await eventually(async () => {
      const samples = await notificationMetrics(platform);
      if (metricSum(samples, pending) !== 0) throw new Error('deliveries still pending');
      const lag = lagOf(samples);
      if (lag.length === 0 || lag.some((sample) => sample.value !== 0))
        throw new Error(`consumer lag of ${platform.customerTopic}: ${JSON.stringify(lag)}`);
      return samples;
    }, 10_000);
    const grew = (labels: Record<string, string>) =>
      metricSum(after, attempts, labels) - metricSum(before, attempts, labels);
    expect({ failed: grew({ outcome: 'failed' }) >= 1, succeeded: grew({ outcome: 'succeeded' }) >= 1 }).toEqual({
      failed: true,
      succeeded: true,
    });
    const latencyCount = /^corridor_webhook_delivery_latency(_seconds)?_count$/;
    expect(metricSum(after, latencyCount) - metricSum(before, latencyCount)).toBeGreaterThanOrEqual(1);
  });
});
