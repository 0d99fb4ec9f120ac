import { sql } from '@corridor/db';
import { DomainError, Status } from '@corridor/grpc';
import { integrationDatabase, eventually } from '@corridor/testing';
import { verifyWebhook } from '@corridor/webhook-signature';
import type { NotificationContext } from '../context.js';
import { notificationDatabase } from '../database.js';
import { WebhookSecrets } from '../secrets/webhook-secrets.js';
import { DeliveryRepository } from './delivery-repository.js';
import { insertDelivery, registerEndpoint } from '../../test/deliveries/delivery.fixtures.js';
import { listenDeliveries, parsePosition, recordListenAttempt } from './listen-api.js';

const secrets = new WebhookSecrets('l'.repeat(64));

/** Decision 0034: what `corridor listen` reads and reports, against real PostgreSQL. */
describe('listening to deliveries (decision 0034; real PostgreSQL)', () => {
  const database = integrationDatabase('notification', notificationDatabase);
  const { em } = database;
  const context = (overrides: Partial<NotificationContext> = {}): NotificationContext => ({
    now: () => new Date(),
    environment: 'sandbox',
    secrets,
    webhookUrls: { allowCidrs: [] },
    ...overrides,
  });
  const listen = (businessId: string, afterPosition: string, ctx = context()) =>
    listenDeliveries(em(), ctx, businessId, { afterPosition, limit: 0 });
  /**
   * Polls as the stream does until every one of `ids` is served: a transaction open anywhere in the
   * PostgreSQL cluster (another database's too: transaction ids are cluster-wide, as other jest
   * workers' are here) holds newer deliveries back until it ends (decision 0034).
   */
  const listenFor = (businessId: string, afterPosition: string, ids: string[]) =>
    eventually(
      async () => {
        const page = await listen(businessId, afterPosition);
        const served = page.deliveries.map(({ delivery }) => delivery.id);
        const missing = ids.filter((id) => !served.includes(id));
        if (missing.length > 0) throw new Error(`not served yet: ${missing.join(', ')}`);
        return page;
      },
      10_000,
      100,
    );
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
    return error;
  };

  beforeAll(async () => {});

  it('serves the business’s new deliveries oldest first, signed now, and nothing twice or of another business', async () => {
    const endpoint = await registerEndpoint(em(), secrets);
    const other = await registerEndpoint(em(), secrets);
    // Made before the listener starts: not served, unless a transaction older than it was still open
    // somewhere then (the start position is that transaction's, so nothing after it is passed over).
    const before = await insertDelivery(em(), endpoint);
    const start = await listen(endpoint.businessId, '');
    expect(start.deliveries).toEqual([]);
    expect(parsePosition(start.position)).toBeDefined();

    const first = await insertDelivery(em(), endpoint);
    await insertDelivery(em(), other);
    const second = await insertDelivery(em(), endpoint);
    const page = await listenFor(endpoint.businessId, start.position, [first, second]);
    expect(page.deliveries.map(({ delivery }) => delivery.id).filter((id) => id !== before)).toEqual([first, second]);
    expect(page.position).toBe(page.deliveries.at(-1)?.position);

    for (const { delivery, headers } of page.deliveries) {
      expect(headers['x-corridor-webhook-id']).toBe(delivery.id);
      const event = verifyWebhook({ rawBody: delivery.body, headers, secret: endpoint.secret });
      expect(event.event).toBe('customer.status_changed');
      expect(delivery.attempts).toEqual([]);
    }
    expect(
      JSON.stringify(page, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)),
    ).not.toContain(endpoint.secret);

    // Resuming from the first one's position gives only the second; from the last, nothing.
    const resumed = await listenFor(endpoint.businessId, page.deliveries.at(-2)?.position ?? '', [second]);
    expect(resumed.deliveries.map(({ delivery }) => delivery.id)).toEqual([second]);
    const after = await listen(endpoint.businessId, page.position);
    expect(after).toEqual({ deliveries: [], position: page.position });
  });

  it('holds back a delivery made after one still uncommitted, so the late commit is never passed over', async () => {
    const endpoint = await registerEndpoint(em(), secrets);
    const start = await listen(endpoint.businessId, '');
    let commit: () => void = () => undefined;
    let inserted: (id: string) => void = () => undefined;
    const insertedId = new Promise<string>((resolve) => (inserted = resolve));
    const open = em().transactional(async (tx) => {
      inserted(await insertDelivery(tx, endpoint));
      await new Promise<void>((resolve) => (commit = resolve));
    });
    const late = await insertedId;
    const early = await insertDelivery(em(), endpoint);
    // `early` is committed, but a transaction older than it is still open: neither is served yet.
    expect((await listen(endpoint.businessId, start.position)).deliveries).toEqual([]);
    commit();
    await open;
    const page = await listenFor(endpoint.businessId, start.position, [late, early]);
    expect(page.deliveries.map(({ delivery }) => delivery.id)).toEqual([late, early]);
  });

  it('records a listener’s answer as a listen attempt and changes nothing else of the delivery', async () => {
    const endpoint = await registerEndpoint(em(), secrets);
    const id = await insertDelivery(em(), endpoint, new Date(Date.now() + 60_000));
    const before = await new DeliveryRepository(em()).findDelivery({ businessId: endpoint.businessId, deliveryId: id });

    const ok = await recordListenAttempt(em(), context(), endpoint.businessId, {
      deliveryId: id,
      statusCode: 204,
      durationMs: 12,
      errorMessage: '',
      responseBody: '',
    });
    expect(ok).toMatchObject({ number: 1, durationMs: 12, statusCode: 204, errorClass: 0, responseBody: '' });
    const refused = await recordListenAttempt(em(), context(), endpoint.businessId, {
      deliveryId: id,
      statusCode: undefined,
      durationMs: 3,
      errorMessage: 'connect ECONNREFUSED 127.0.0.1:3000',
      responseBody: '',
    });
    expect(refused).toMatchObject({ number: 2, statusCode: 0, errorMessage: 'connect ECONNREFUSED 127.0.0.1:3000' });
    const big = await recordListenAttempt(em(), context(), endpoint.businessId, {
      deliveryId: id,
      statusCode: 500,
      durationMs: 7,
      errorMessage: '',
      responseBody: 'é'.repeat(3000),
    });
    expect(big).toMatchObject({ number: 3, statusCode: 500, errorMessage: 'the local URL answered 500' });
    expect(Buffer.byteLength(big.responseBody)).toBe(4096);

    const [attempts, after] = await Promise.all([
      sql<{ trigger: string; outcome: string; error_class: string | null }>(
        em(),
        `select trigger, outcome, error_class from webhook_attempt where delivery_id = ? order by number`,
        [id],
      ),
      new DeliveryRepository(em()).findDelivery({ businessId: endpoint.businessId, deliveryId: id }),
    ]);
    expect(attempts).toEqual([
      { trigger: 'listen', outcome: 'succeeded', error_class: null },
      { trigger: 'listen', outcome: 'failed', error_class: 'connect' },
      { trigger: 'listen', outcome: 'failed', error_class: 'http_status' },
    ]);
    // A success to a local URL does not end the delivery: the registered URL still gets it on schedule.
    expect(after).toMatchObject({
      status: 'pending',
      nextAttemptAt: before?.nextAttemptAt,
      scheduledAttempts: 0,
      attemptCount: 3,
    });
  });

  it('refuses another business’s delivery, a bad report, a bad position, and production unless allowed', async () => {
    const endpoint = await registerEndpoint(em(), secrets);
    const other = await registerEndpoint(em(), secrets);
    const id = await insertDelivery(em(), other);
    const report = { deliveryId: id, statusCode: 200, durationMs: 1, errorMessage: '', responseBody: '' };
    expect(await refusal(recordListenAttempt(em(), context(), endpoint.businessId, report))).toMatchObject({
      status: Status.NOT_FOUND,
      reason: 'DELIVERY_NOT_FOUND',
    });
    const bad = await refusal(
      recordListenAttempt(em(), context(), other.businessId, { ...report, statusCode: 42, durationMs: 3_600_000 }),
    );
    expect(bad).toMatchObject({ status: Status.INVALID_ARGUMENT });
    expect(Object.keys(bad.fieldErrors ?? {}).sort()).toEqual(['duration_ms', 'status_code']);
    expect(
      await refusal(recordListenAttempt(em(), context(), other.businessId, { ...report, statusCode: undefined })),
    ).toMatchObject({ fieldErrors: { error: ['is required when no status_code came back'] } });
    expect(await refusal(listen(endpoint.businessId, 'not-a-position'))).toMatchObject({
      status: Status.INVALID_ARGUMENT,
      fieldErrors: { last_event_id: ['must be an event id this stream sent'] },
    });

    const production = context({ environment: 'production' });
    expect(await refusal(listen(endpoint.businessId, '', production))).toMatchObject({
      status: Status.PERMISSION_DENIED,
      reason: 'SANDBOX_ONLY',
    });
    expect(await refusal(recordListenAttempt(em(), production, other.businessId, report))).toMatchObject({
      reason: 'SANDBOX_ONLY',
    });
    const allowed = await listen(
      endpoint.businessId,
      '',
      context({ environment: 'production', listenInProduction: true }),
    );
    expect(allowed.deliveries).toEqual([]);
  });
});
