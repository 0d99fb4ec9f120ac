import { createTestCertificates, type TestCertificates } from '@corridor/testing';
import { expectInvalid } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import { ReceivingBusiness, receiverEnv, sleep } from '../support/receiving-business.js';
import type { AttemptMadeJson } from '../support/webhooks.js';

/** Seed 6.4 rule 4's schedule scaled down: five failures take about a second. */
const SCHEDULE = [0, 200, 200, 200, 200];

/** Issue 11's collection webhook `data` (seed 6.3 names transaction_status and message; decision 0015 adds two). */
const COLLECTION_FIELDS = [
  'transaction_id',
  'business_id',
  'transaction_status',
  'message',
  'method',
  'customer_id',
  'virtual_account_id',
  'sender_name',
  'description',
  'reference',
  'amount',
  'fee',
  'net',
  'currency',
  'failure_reason',
  'created_at',
  'completed_at',
  'expired_at',
  // Decision 0015: Interac's payer or sender email, a crypto deposit's chain details.
  'payer_email',
  'crypto',
];

/** Issue 11's refund webhook `data` (seed 6.3 names type and status). */
const REFUND_FIELDS = [
  'refund_id',
  'transaction_id',
  'business_id',
  'reference',
  'reason',
  'type',
  'status',
  'amount',
  'currency',
  'failure_reason',
  'created_at',
  'completed_at',
];

/**
 * Decision 0010's events: where each goes (with kyc_url registered), the members of `data`
 * exactly, and the values the seed fixes.
 */
const EVENTS: Record<string, { path: string; destination: string; fields: string[]; fixed?: Record<string, unknown> }> =
  {
    'customer.status_changed': {
      path: '/kyc',
      destination: 'kyc_url',
      fields: ['customer_id', 'business_id', 'customer_type', 'kyb_scope', 'old_status', 'new_status', 'changed_at'],
    },
    'merchant.kyc.session.completed': {
      path: '/kyc',
      destination: 'kyc_url',
      // Seed 6.2's eight fields.
      fields: [
        'session_id',
        'business_id',
        'customer_reference',
        'requirements',
        'result',
        'rejection_reason',
        'rejection_type',
        'completed_at',
      ],
    },
    'merchant.kyc.session.expired': {
      path: '/kyc',
      destination: 'kyc_url',
      fields: ['session_id', 'business_id', 'customer_reference', 'expired_at'],
    },
    'collection.successful': {
      path: '/collection',
      destination: 'collection_url',
      fields: COLLECTION_FIELDS,
      fixed: { transaction_status: 'SUCCESSFUL', message: 'Transaction Successful' },
    },
    'collection.failed': {
      path: '/collection',
      destination: 'collection_url',
      fields: COLLECTION_FIELDS,
      fixed: { transaction_status: 'FAILED', message: 'Transaction Failed' },
    },
    'collection.expired': {
      path: '/collection',
      destination: 'collection_url',
      fields: COLLECTION_FIELDS,
      fixed: { transaction_status: 'EXPIRED', message: 'Transaction Expired' },
    },
    refund_initiated: {
      path: '/collection',
      destination: 'collection_url',
      fields: REFUND_FIELDS,
      fixed: { type: 'refund_initiated', status: 'processing' },
    },
    refund: {
      path: '/collection',
      destination: 'collection_url',
      fields: REFUND_FIELDS,
      fixed: { type: 'refund' },
    },
  };

describe('webhooks: attempt log, replay and mock trigger (decision 0010; issue 5 build 6-7)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  /** Production, for the sandbox-only mock trigger: no customer-kyb needed. */
  const production = new Platform({ environment: 'production', customers: false });
  const businesses: ReceivingBusiness[] = [];
  const api = () => platform.webhooks;

  const business = async () => {
    const created = await ReceivingBusiness.create(platform, certificates);
    businesses.push(created);
    return created;
  };

  /** The delivery once it is no longer pending. */
  const ended = (owner: ReceivingBusiness, id: string) =>
    api().deliveryWhen(owner.token, id, (delivery) => delivery.status !== 'pending');

  /** A submitted customer whose webhook failed five times (the receiver answers 500 until told otherwise). */
  const failedDelivery = async (owner: ReceivingBusiness, customerId?: string) => {
    owner.receiver.respondWith(() => ({ status: 500, body: 'down' }));
    const submitted = customerId ? await owner.submit(customerId) : await owner.submitNew();
    const requests = await owner.waitForCustomer(submitted.customerId, 5);
    const delivery = await ended(owner, requests[0]?.webhookId ?? '');
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 5 });
    return { delivery, requests, customerId: submitted.customerId };
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({ notificationEnv: receiverEnv(certificates, SCHEDULE) });
    await Promise.all([platform.start(), production.start()]);
  });
  afterAll(async () => {
    await Promise.all(businesses.map((owner) => owner.stop()));
    await Promise.all([platform?.stop(), production.stop()]);
  });

  describe('replay (webhook:replay)', () => {
    it('decision 0010: POST /webhook/deliveries/{id}/replay re-sends the same bytes under the same webhook id, freshly signed, logs a replay attempt and turns a failed delivery succeeded', async () => {
      const owner = await business();
      const { delivery, requests } = await failedDelivery(owner);
      await sleep(1_100); // the replay is signed in a later second than every attempt before it
      owner.receiver.respondWith(() => ({ status: 200, body: 'thanks' }));

      const answer = await api().replay(owner.token, delivery.id);
      expect(answer).toMatchObject({ id: delivery.id, status: 'succeeded', attempt_count: 6, next_attempt_at: null });
      expect(answer.attempt).toMatchObject({
        number: 6,
        trigger: 'replay',
        outcome: 'succeeded',
        status_code: 200,
        error_class: null,
        response_body: 'thanks',
      });
      expect(answer.attempts.map((attempt) => attempt.trigger)).toEqual([...Array(5).fill('scheduled'), 'replay']);
      expect(answer.attempts.at(-1)).toEqual(answer.attempt);

      expect(owner.receiver.requests).toHaveLength(6);
      const replayed = owner.receiver.requests[5];
      const first = requests[0];
      expect(replayed?.rawBody).toBe(first?.rawBody); // byte for byte
      expect(replayed?.webhookId).toBe(delivery.id);
      expect(replayed?.verified).toBe(true);
      const earlier = requests.map((request) => Number(request.headers['x-corridor-timestamp']));
      expect(Number(replayed?.headers['x-corridor-timestamp'])).toBeGreaterThan(Math.max(...earlier));
      expect(requests.map((request) => request.headers['x-corridor-signature'])).not.toContain(
        replayed?.headers['x-corridor-signature'],
      );
      // Nothing is scheduled after it, and the log reads the same afterwards.
      await sleep(SCHEDULE[1]! + 1_000);
      expect(owner.receiver.requests).toHaveLength(6);
      const { attempt: _made, ...replayedDelivery } = answer;
      expect(await api().delivery(owner.token, delivery.id)).toEqual({
        ...replayedDelivery,
        updated_at: expect.any(String),
      });
    });

    it('decision 0010: a replay that fails again is logged and changes nothing else (the delivery stays failed, nothing is rescheduled)', async () => {
      const owner = await business();
      const { delivery } = await failedDelivery(owner);
      const answer = await api().replay(owner.token, delivery.id);
      expect(answer).toMatchObject({ status: 'failed', attempt_count: 6, next_attempt_at: null });
      expect(answer.attempt).toMatchObject({
        number: 6,
        trigger: 'replay',
        outcome: 'failed',
        status_code: 500,
        error_class: 'http_status',
      });
      await sleep(SCHEDULE[1]! + 1_000);
      expect(owner.receiver.requests).toHaveLength(6);
    });

    it('seed 5 + decision 0010: replay is 403 without webhook:replay, and 404 for another business’s delivery; nothing is sent', async () => {
      const [owner, other] = await Promise.all([business(), business()]);
      const { delivery } = await failedDelivery(owner);
      const readOnly = await owner.tokenWith(['webhook:read']);
      await expectError(await api().replayCall(readOnly, delivery.id), 403, {
        code: 'SCOPE_MISSING',
        message: /webhook:replay/,
      });
      await expectError(await api().bulkReplayCall(readOnly, { since: delivery.created_at }), 403, {
        code: 'SCOPE_MISSING',
        message: /webhook:replay/,
      });
      await expectError(await api().replayCall(other.token, delivery.id), 404);
      await expectError(await api().call(other.token, 'GET', `/webhook/deliveries/${delivery.id}`), 404);
      // The other business's bulk replay does not reach this business's failed delivery.
      expect(await api().bulkReplay(other.token, { since: delivery.created_at })).toEqual({ queued: 0 });

      await sleep(1_000);
      expect(owner.receiver.requests).toHaveLength(5);
      expect(other.receiver.requests).toHaveLength(0);
      expect(await api().delivery(owner.token, delivery.id)).toMatchObject({ status: 'failed', attempt_count: 5 });
    });

    it('decision 0010: bulk replay queues every failed delivery created in [since, until) (202, queued) and the worker sends each once more', async () => {
      const owner = await business();
      const [early, late] = await Promise.all([owner.readyCustomer(), owner.readyCustomer()]);
      const start = new Date(Date.now() - 1_000).toISOString();
      const first = await failedDelivery(owner, early.id);
      const between = new Date().toISOString();
      const second = await failedDelivery(owner, late.id);
      owner.receiver.respondWith(() => ({ status: 200 }));

      // Since `between`: only the second.
      expect(await api().bulkReplay(owner.token, { since: between })).toEqual({ queued: 1 });
      await owner.waitForCustomer(second.customerId, 6);
      const secondLog = await api().deliveryWhen(owner.token, second.delivery.id, (d) => d.status === 'succeeded');
      expect(secondLog.attempts.at(-1)).toMatchObject({
        number: 6,
        trigger: 'replay',
        outcome: 'succeeded',
        status_code: 200,
      });
      expect(owner.receiver.requests.at(-1)).toMatchObject({ rawBody: second.requests[0]?.rawBody, verified: true });
      await sleep(1_000);
      expect(owner.webhooksOf(first.customerId)).toHaveLength(5);
      expect(await api().delivery(owner.token, first.delivery.id)).toMatchObject({
        status: 'failed',
        attempt_count: 5,
      });

      // [start, between): the first; the second is no longer failed, so it is not queued again.
      expect(await api().bulkReplay(owner.token, { since: start, until: between })).toEqual({ queued: 1 });
      await owner.waitForCustomer(first.customerId, 6);
      await api().deliveryWhen(owner.token, first.delivery.id, (d) => d.status === 'succeeded');
      expect(await api().bulkReplay(owner.token, { since: start })).toEqual({ queued: 0 });
      await sleep(1_000);
      expect(owner.webhooksOf(second.customerId)).toHaveLength(6);
      expect(owner.webhooksOf(first.customerId)).toHaveLength(6);
    });

    it('decision 0010: bulk replay refuses a body without a valid since (422)', async () => {
      const owner = await business();
      await expectError(await api().bulkReplayCall(owner.token, {}), 422, { message: /since/ });
      await expectError(await api().bulkReplayCall(owner.token, { since: 'yesterday' }), 422, { message: /since/ });
    });
  });

  describe('mock trigger (mock:webhook:trigger, sandbox only)', () => {
    it('issue 5 build 7, decision 0010: POST /webhook/mock sends a signed example of each event type to its URL and answers with the attempt', async () => {
      const owner = await business();
      for (const [event, expected] of Object.entries(EVENTS)) {
        const answer = await api().mock(owner.token, { event });
        expect({ event, answer }).toMatchObject({
          event,
          answer: {
            event,
            destination: expected.destination,
            url: owner.receiver.url(expected.path),
            status: 'succeeded',
            attempt_count: 1,
            next_attempt_at: null,
            mock: true,
            attempt: { number: 1, trigger: 'mock', outcome: 'succeeded', status_code: 200, error_class: null },
          },
        });
        expect(answer.attempts).toEqual([answer.attempt]);
        const [request] = await owner.receiver.waitFor((r) => r.webhookId === answer.id);
        expect({ event, path: request?.path, verified: request?.verified, error: request?.verificationError }).toEqual({
          event,
          path: expected.path,
          verified: true,
          error: undefined,
        });
        const body = request?.json as { event: string; data: Record<string, unknown> };
        expect(Object.keys(body)).toEqual(['event', 'data']);
        expect(body.event).toBe(event);
        expect(Object.keys(body.data).sort()).toEqual([...expected.fields].sort());
        expect(body.data).toMatchObject(expected.fixed ?? {});
        expect(answer.payload).toEqual(body);
      }
      expect(owner.receiver.requests).toHaveLength(Object.keys(EVENTS).length);
    });

    it('decision 0010: `data` members replace the example’s; an unknown member or an unknown event is 422', async () => {
      const owner = await business();
      const answer = await api().mock(owner.token, {
        event: 'refund',
        data: { status: 'failed', reference: 'refund-test-7' },
      });
      const [request] = await owner.receiver.waitFor((r) => r.webhookId === answer.id);
      expect(request?.json).toMatchObject({
        event: 'refund',
        data: { type: 'refund', status: 'failed', reference: 'refund-test-7' },
      });

      // The message names the field and the events there are.
      await expectError(await api().mockCall(owner.token, { event: 'customer.deleted' }), 422, {
        message: /^event .*customer\.status_changed.*refund/,
      });
      await expectError(await api().mockCall(owner.token, { event: 'refund', data: { surprise: true } }), 422, {
        message: /surprise/,
      });
      await expectError(await api().mockCall(owner.token, {}), 422, { message: /event/ });
      expect(owner.receiver.requests).toHaveLength(1);
    });

    it('decision 0010: a mock whose receiver fails is logged failed with its one attempt and never retried', async () => {
      const owner = await business();
      owner.receiver.respondWith([{ status: 500, body: 'receiver down' }]);
      const answer = await api().mock(owner.token, { event: 'collection.expired' });
      expect(answer).toMatchObject({ mock: true, status: 'failed', attempt_count: 1, next_attempt_at: null });
      expect(answer.attempt).toMatchObject({
        number: 1,
        trigger: 'mock',
        outcome: 'failed',
        status_code: 500,
        error_class: 'http_status',
        response_body: 'receiver down',
      });
      await sleep(SCHEDULE[1]! * 5 + 1_000);
      expect(owner.receiver.requests).toHaveLength(1);
      expect(await api().delivery(owner.token, answer.id)).toMatchObject({
        mock: true,
        status: 'failed',
        attempt_count: 1,
      });
    });

    it('seed 5: POST /webhook/mock is 403 without mock:webhook:trigger, and nothing is sent', async () => {
      const owner = await business();
      const token = await owner.tokenWith(['webhook:read', 'webhook:write', 'webhook:replay']);
      await expectError(await api().mockCall(token, { event: 'refund' }), 403, {
        code: 'SCOPE_MISSING',
        message: /mock:webhook:trigger/,
      });
      await sleep(500);
      expect(owner.receiver.requests).toHaveLength(0);
    });

    it('issue 5 build 7: in production POST /webhook/mock is 403 SANDBOX_ONLY', async () => {
      const caller = await production.webhooks.caller(['webhook:write', 'mock:webhook:trigger']);
      await production.webhooks.register(caller.token);
      await expectError(await production.webhooks.mockCall(caller.token, { event: 'customer.status_changed' }), 403, {
        code: 'SANDBOX_ONLY',
      });
    });
  });

  describe('the attempt log: GET /webhook/deliveries (webhook:read)', () => {
    let owner: ReceivingBusiness;
    /** The deliveries made for this block, oldest first. */
    const made: AttemptMadeJson[] = [];
    const ids = (list: { id: string }[]) => list.map((delivery) => delivery.id);
    /** Between two deliveries' creation times (the API shows milliseconds, the database has more). */
    const between = (older: number, newer: number) =>
      new Date((Date.parse(made[older]!.created_at) + Date.parse(made[newer]!.created_at)) / 2).toISOString();

    beforeAll(async () => {
      owner = await business();
      // refund fails (500), every other event is answered 200.
      owner.receiver.respondWith((request) =>
        (request.json as { event?: string } | undefined)?.event === 'refund' ? { status: 500 } : { status: 200 },
      );
      const plan = [
        ...Array(6).fill('customer.status_changed'),
        'refund',
        'collection.expired',
        ...Array(6).fill('customer.status_changed'),
        'refund',
        'collection.expired',
      ] as string[];
      for (const event of plan) made.push(await api().mock(owner.token, { event }));
    });

    it('decisions 0010, 0018: {data, links, meta}, 15 a page, newest first, in cursor pages', async () => {
      const newestFirst = ids([...made].reverse());
      const first = await api().deliveries(owner.token);
      expect(Object.keys(first).sort()).toEqual(['data', 'links', 'meta']);
      expect(first.meta).toMatchObject({ per_page: 15, prev_cursor: null });
      expect(ids(first.data)).toEqual(newestFirst.slice(0, 15));
      expect(first.links).toMatchObject({ first: null, last: null, prev: null });
      const cursor = String(first.meta.next_cursor);
      expect(new URL(String(first.links.next)).searchParams.get('cursor')).toBe(cursor);
      const second = await api().deliveries(owner.token, { cursor });
      expect(ids(second.data)).toEqual(newestFirst.slice(15));
      expect(second.links.next).toBeNull();
      expect(second.meta.prev_cursor).toEqual(expect.any(String));
      // A list entry is the delivery without its attempts.
      const { attempts: _attempts, attempt: _attempt, ...newest } = made.at(-1)!;
      expect(first.data[0]).toEqual({ ...newest, updated_at: expect.any(String) });
    });

    it('decision 0018: page=N answers the numbered envelope, its total exact under 10,000', async () => {
      const newestFirst = ids([...made].reverse());
      const first = await api().deliveries(owner.token, { page: 1 });
      expect(first.meta).toMatchObject({
        current_page: 1,
        per_page: 15,
        last_page: 2,
        total: 16,
        total_capped: false,
        from: 1,
        to: 15,
      });
      expect(new URL(String(first.links.next)).searchParams.get('page')).toBe('2');
      const second = await api().deliveries(owner.token, { page: 2 });
      expect(second.meta).toMatchObject({ current_page: 2, total: 16, from: 16, to: 16 });
      expect(ids(second.data)).toEqual(newestFirst.slice(15));
      expect(second.links.next).toBeNull();
      await expectInvalid(await api().listCall(owner.token, { page: 101 }), { page: /100/ });
      await expectInvalid(await api().listCall(owner.token, { cursor: 'forged' }), { cursor: /not a cursor/ });
    });

    it('decision 0010: status, event and from/to filters, alone and together', async () => {
      const newestFirst = [...made].reverse();
      const expectIds = async (query: Record<string, string>, accept: (index: number) => boolean) => {
        const listed = await api().allDeliveries(owner.token, query);
        const expected = newestFirst.filter((delivery) => accept(made.indexOf(delivery)));
        expect({ query, ids: ids(listed) }).toEqual({ query, ids: ids(expected) });
      };
      const event = (index: number) => made[index]!.event;
      await expectIds({ status: 'failed' }, (index) => event(index) === 'refund');
      await expectIds({ status: 'succeeded' }, (index) => event(index) !== 'refund');
      await expectIds({ status: 'pending' }, () => false);
      await expectIds({ event: 'collection.expired' }, (index) => event(index) === 'collection.expired');
      // created_at in [from, to): the 5th to the 9th made.
      await expectIds({ from: between(3, 4), to: between(8, 9) }, (index) => index >= 4 && index <= 8);
      await expectIds({ from: between(9, 10) }, (index) => index >= 10);
      await expectIds({ to: between(0, 1) }, (index) => index === 0);
      await expectIds(
        { event: 'customer.status_changed', status: 'succeeded', from: between(5, 6) },
        (index) => index >= 6 && event(index) === 'customer.status_changed',
      );
      // Another business sees none of them.
      const other = await business();
      expect((await api().deliveries(other.token)).data).toEqual([]);
    });

    it('decision 0010: a bad status, date or event is 422 naming the parameter', async () => {
      const call = (query: Record<string, string>) => api().listCall(owner.token, query);
      await expectInvalid(await call({ status: 'done' }), { status: /pending.*succeeded.*failed/ });
      await expectInvalid(await call({ from: 'yesterday' }), { from: /date-time/ });
      await expectInvalid(await call({ to: '2026-02-30T00:00:00Z' }), { to: /date-time/ });
      await expectInvalid(await call({ from: '2026-11-21T10:00:00Z', to: '2026-11-21T09:00:00Z' }), {
        from: /before/,
      });
      await expectInvalid(await call({ event: 'customer.deleted' }), { event: /customer\.status_changed.*refund/ });
    });
  });
});
