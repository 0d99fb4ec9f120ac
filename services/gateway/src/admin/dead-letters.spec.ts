import { DeadLetterStatus, RetryOutcome } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { DomainError, failedPrecondition, invalidArgument, notFound, Status } from '@corridor/grpc';
import type { OperationObject } from 'openapi3-ts/oas31';
import { adminUnderTest } from '../../test/admin/admin-listener.fixture.js';
import { DeadLetterDetail, DeadLetterList, RetryAnswer } from './dead-letters.js';
import { adminOpenApiDocument } from './document.js';
import {
  DEAD_LETTER_ID,
  deadLetter,
  GARBAGE,
  listedDeadLetter,
  RECEIVED,
  RETRIED,
  retriedAt,
  startFakeConsumers,
  TRACEPARENT,
} from '../../test/admin/fake-dead-letter-service.js';

const ADMIN_TOKEN = 'admin-token-for-the-dead-letter-spec';

/** The list item the gateway renders from deadLetter(): no bytes, unresolved, never retried. */
const itemJson = (service: string, changes: Record<string, unknown> = {}) => ({
  id: DEAD_LETTER_ID,
  service,
  consumer: 'sandbox.notification',
  topic: 'sandbox.corridor.customer.v1',
  partition: 2,
  offset: '18734',
  status: 'unresolved',
  error: 'not a corridor.events.v1.Event: premature EOF',
  value_size: GARBAGE.length,
  received_at: RECEIVED.toISOString(),
  retry_count: 0,
  last_retried_at: null,
  last_retry_error: null,
  resolved_at: null,
  event_id: null,
  ...changes,
});

const detailJson = (service: string, changes: Record<string, unknown> = {}) => ({
  ...itemJson(service),
  key: Buffer.from('4b8f3c2e').toString('base64'),
  value: GARBAGE.toString('base64'),
  headers: [{ name: 'traceparent', value: Buffer.from(TRACEPARENT).toString('base64') }],
  ...changes,
});

/** The dead-letter routes (decision 0023) on the admin listener as bootstrap builds it, over two fake consumers. */
describe('admin dead letters', () => {
  let consumers: Awaited<ReturnType<typeof startFakeConsumers>> | undefined;
  const backOffice = adminUnderTest(
    async () => (consumers = await startFakeConsumers()),
    (started) => started.clients,
    ADMIN_TOKEN,
    'req-admin-dead-letters',
  );
  beforeEach(() => consumers?.reset());

  /** The one call made: by which service, the method and request, for no business. */
  const received = (service: string, method: string) => {
    expect(backOffice.calls).toHaveLength(1);
    expect(backOffice.calls[0]).toMatchObject({ service, method });
    expect(backOffice.calls[0]?.caller.businessId).toBeUndefined();
    expect(backOffice.calls[0]?.caller).toMatchObject({ requestId: 'req-admin-dead-letters', environment: 'sandbox' });
    return backOffice.calls[0]?.request;
  };

  describe('GET /admin/dead-letters/{service}', () => {
    it.each(['notification', 'payments'])(
      'lists the dead letters of %s in the cursor envelope, the first page of 15 of every status',
      async (service) => {
        const response = await backOffice.admin('GET', `/admin/dead-letters/${service}`);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          data: [itemJson(service)],
          links: { first: null, last: null, prev: null, next: null },
          meta: {
            path: expect.stringMatching(`/admin/dead-letters/${service}$`),
            per_page: 15,
            next_cursor: null,
            prev_cursor: null,
          },
        });
        expect(DeadLetterList.safeParse(response.body).error).toBeUndefined();
        expect(received(service, 'listDeadLetters')).toMatchObject({
          status: DeadLetterStatus.UNSPECIFIED,
          cursorPage: { cursor: '', limit: 15 },
        });
      },
    );

    it('passes status, per_page and cursor on, and links the next and previous pages with the query kept', async () => {
      backOffice.answers.set('listDeadLetters', () => ({
        deadLetters: [listedDeadLetter(retriedAt({ lastRetryError: 'still garbage' }))],
        cursorPage: { nextCursor: 'older', previousCursor: 'newer', limit: 5 },
      }));
      const query = 'status=unresolved&per_page=5';
      const response = await backOffice.admin('GET', `/admin/dead-letters/payments?${query}&cursor=this`);
      expect(response.status).toBe(200);
      const path = String((response.body.meta as { path: string }).path);
      expect(response.body).toEqual({
        data: [
          itemJson('payments', {
            retry_count: 1,
            last_retried_at: RETRIED.toISOString(),
            last_retry_error: 'still garbage',
          }),
        ],
        links: {
          first: null,
          last: null,
          prev: `${path}?${query}&cursor=newer`,
          next: `${path}?${query}&cursor=older`,
        },
        meta: { path, per_page: 5, next_cursor: 'older', prev_cursor: 'newer' },
      });
      expect(received('payments', 'listDeadLetters')).toMatchObject({
        status: DeadLetterStatus.UNRESOLVED,
        cursorPage: { cursor: 'this', limit: 5 },
      });
    });

    it('shows a resolved dead letter with its event id', async () => {
      const resolved = new Date('2026-11-26T11:00:00.000Z');
      const eventId = '1e2d3c4b-0000-4000-8000-0000000e0e01';
      backOffice.answers.set('listDeadLetters', () => ({
        deadLetters: [
          listedDeadLetter({
            status: DeadLetterStatus.RESOLVED,
            retryCount: 1,
            lastRetriedAt: { seconds: BigInt(resolved.getTime() / 1000), nanos: 0 },
            resolvedAt: { seconds: BigInt(resolved.getTime() / 1000), nanos: 0 },
            eventId,
          }),
        ],
        cursorPage: { limit: 15 },
      }));
      const response = await backOffice.admin('GET', '/admin/dead-letters/notification?status=resolved');
      expect(response.body.data).toEqual([
        itemJson('notification', {
          status: 'resolved',
          retry_count: 1,
          last_retried_at: resolved.toISOString(),
          resolved_at: resolved.toISOString(),
          event_id: eventId,
        }),
      ]);
      expect(received('notification', 'listDeadLetters')).toMatchObject({ status: DeadLetterStatus.RESOLVED });
    });

    it.each([
      ['status=UNRESOLVED', 'status', /^must be one of unresolved, resolved, got "UNRESOLVED"$/],
      ['status=', 'status', /^must be one of unresolved, resolved/],
      ['per_page=0', 'per_page', /from 1 to 100/],
      ['per_page=101', 'per_page', /from 1 to 100/],
      ['per_page=ten', 'per_page', /from 1 to 100/],
      ['cursor=', 'cursor', /^must not be empty$/],
      ['status=resolved&status=unresolved', 'status', /^must be given once$/],
      ['state=resolved', 'state', /^is not a recognised query parameter; use status, cursor, per_page$/],
    ])('refuses ?%s with 422 naming %s, asking no service', async (query, field, message) => {
      const response = await backOffice.admin('GET', `/admin/dead-letters/notification?${query}`);
      expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
      expect(Object.keys(response.body.errors as object)).toEqual([field]);
      expect((response.body.errors as Record<string, string[]>)[field]?.[0]).toMatch(message);
      expect(backOffice.calls).toHaveLength(0);
    });

    it('answers the service’s refusal of a cursor that is not one of its pages as is', async () => {
      const errors = { cursor: ['is not a page of this list'] };
      backOffice.answers.set('listDeadLetters', () => {
        throw invalidArgument('cursor is not a page of this list', errors);
      });
      expect(await backOffice.admin('GET', '/admin/dead-letters/payments?cursor=forged')).toEqual({
        status: 422,
        body: { status: false, code: 'VALIDATION_FAILED', message: 'cursor is not a page of this list', errors },
      });
    });
  });

  describe('GET /admin/dead-letters/{service}/{id}', () => {
    it.each(['notification', 'payments'])(
      'reads one of %s with its key, value and headers in base64',
      async (service) => {
        const response = await backOffice.admin('GET', `/admin/dead-letters/${service}/${DEAD_LETTER_ID}`);
        expect(response).toEqual({ status: 200, body: detailJson(service) });
        expect(DeadLetterDetail.safeParse(response.body).error).toBeUndefined();
        expect(Buffer.from(String(response.body.value), 'base64')).toEqual(GARBAGE);
        expect(received(service, 'getDeadLetter')).toMatchObject({ deadLetterId: DEAD_LETTER_ID });
      },
    );

    it('shows null for a message without key or value (a tombstone)', async () => {
      backOffice.answers.set('getDeadLetter', () => ({
        deadLetter: deadLetter({
          key: undefined,
          value: undefined,
          valueSize: 0,
          headers: [],
          error: 'empty message (no value)',
        }),
      }));
      const response = await backOffice.admin('GET', `/admin/dead-letters/payments/${DEAD_LETTER_ID}`);
      expect(response.body).toEqual(
        detailJson('payments', {
          key: null,
          value: null,
          headers: [],
          value_size: 0,
          error: 'empty message (no value)',
        }),
      );
    });

    it('answers the service’s NOT_FOUND as 404 DEAD_LETTER_NOT_FOUND', async () => {
      backOffice.answers.set('getDeadLetter', () => {
        throw notFound('DEAD_LETTER_NOT_FOUND', `dead letter ${DEAD_LETTER_ID} not found`);
      });
      expect(await backOffice.admin('GET', `/admin/dead-letters/notification/${DEAD_LETTER_ID}`)).toEqual({
        status: 404,
        body: { status: false, code: 'DEAD_LETTER_NOT_FOUND', message: `dead letter ${DEAD_LETTER_ID} not found` },
      });
    });
  });

  describe('POST /admin/dead-letters/{service}/{id}/retry', () => {
    const retry = (service: string, id = DEAD_LETTER_ID) =>
      backOffice.admin('POST', `/admin/dead-letters/${service}/${id}/retry`);

    it.each([
      [RetryOutcome.APPLIED, 'applied'],
      [RetryOutcome.ALREADY_APPLIED, 'already_applied'],
      [RetryOutcome.ALREADY_RESOLVED, 'already_resolved'],
    ])('answers outcome %s as "%s" with the dead letter after the retry', async (outcome, word) => {
      const resolved = { seconds: BigInt(RETRIED.getTime() / 1000), nanos: 0 };
      const eventId = '1e2d3c4b-0000-4000-8000-0000000e0e01';
      backOffice.answers.set('retryDeadLetter', () => ({
        outcome,
        deadLetter: retriedAt({ status: DeadLetterStatus.RESOLVED, resolvedAt: resolved, eventId }),
      }));
      const response = await retry('notification');
      expect(response).toEqual({
        status: 200,
        body: {
          outcome: word,
          dead_letter: detailJson('notification', {
            status: 'resolved',
            retry_count: 1,
            last_retried_at: RETRIED.toISOString(),
            resolved_at: RETRIED.toISOString(),
            event_id: eventId,
          }),
        },
      });
      expect(RetryAnswer.safeParse(response.body).error).toBeUndefined();
      expect(received('notification', 'retryDeadLetter')).toMatchObject({ deadLetterId: DEAD_LETTER_ID });
    });

    it.each([
      ['DEAD_LETTER_UNDECODABLE', `dead letter ${DEAD_LETTER_ID} still cannot be decoded: premature EOF`],
      ['DEAD_LETTER_OF_ANOTHER_CONSUMER', `dead letter ${DEAD_LETTER_ID} was received by another group`],
    ])('answers FAILED_PRECONDITION %s as 400 with the service’s message', async (code, message) => {
      backOffice.answers.set('retryDeadLetter', () => {
        throw failedPrecondition(code, message);
      });
      expect(await retry('payments')).toEqual({ status: 400, body: { status: false, code, message } });
      received('payments', 'retryDeadLetter');
    });

    it('answers NOT_FOUND as 404, and a handler’s failure as a 500 that tells nothing of it', async () => {
      backOffice.answers.set('retryDeadLetter', () => {
        throw notFound('DEAD_LETTER_NOT_FOUND', `dead letter ${DEAD_LETTER_ID} not found`);
      });
      expect(await retry('payments')).toMatchObject({ status: 404, body: { code: 'DEAD_LETTER_NOT_FOUND' } });
      backOffice.answers.set('retryDeadLetter', () => {
        throw new DomainError(Status.INTERNAL, 'INTERNAL', 'the handler failed: relation customer does not exist');
      });
      expect(await retry('payments')).toEqual({
        status: 500,
        body: { status: false, code: 'INTERNAL', message: 'internal error' },
      });
    });
  });

  describe('paths that name nothing: 404 without a call', () => {
    it.each([
      ['GET', '/admin/dead-letters/identity'],
      ['GET', `/admin/dead-letters/customer-kyb/${DEAD_LETTER_ID}`],
      ['POST', `/admin/dead-letters/Notification/${DEAD_LETTER_ID}/retry`],
    ])('%s %s names no service that keeps dead letters', async (method, path) => {
      const response = await backOffice.admin(method, path);
      expect(response).toMatchObject({ status: 404, body: { status: false, code: 'SERVICE_NOT_FOUND' } });
      expect(response.body.message).toMatch(
        /keeps no dead letters; the services that do are notification and payments$/,
      );
      expect(backOffice.calls).toHaveLength(0);
    });

    it.each([
      ['GET', '/admin/dead-letters/notification/18734'],
      ['POST', '/admin/dead-letters/payments/not-a-uuid/retry'],
    ])('%s %s names no dead letter', async (method, path) => {
      const response = await backOffice.admin(method, path);
      expect(response).toMatchObject({ status: 404, body: { status: false, code: 'DEAD_LETTER_NOT_FOUND' } });
      expect(backOffice.calls).toHaveLength(0);
    });

    it('needs the admin token like every admin route', async () => {
      const response = await backOffice.admin('GET', '/admin/dead-letters/notification', undefined, 'not-the-token');
      expect(response).toMatchObject({ status: 401, body: { code: 'ADMIN_TOKEN_INVALID' } });
      expect(backOffice.calls).toHaveLength(0);
    });
  });

  it('documents the three routes in the admin document, with the list’s query and the retry’s 400', () => {
    const document = adminOpenApiDocument();
    const operation = (path: string, method: string) =>
      (document.paths?.[path] as Record<string, OperationObject> | undefined)?.[method];
    const list = operation('/admin/dead-letters/{service}', 'get');
    expect(list?.operationId).toBe('listDeadLetters');
    expect(list?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'service', in: 'path' }),
        expect.objectContaining({
          name: 'status',
          in: 'query',
          required: false,
          schema: expect.objectContaining({ enum: ['unresolved', 'resolved'] }),
        }),
        expect.objectContaining({
          name: 'per_page',
          schema: expect.objectContaining({ minimum: 1, maximum: 100, default: 15 }),
        }),
        expect.objectContaining({ name: 'cursor', in: 'query' }),
      ]),
    );
    expect(operation('/admin/dead-letters/{service}/{id}', 'get')?.operationId).toBe('getDeadLetter');
    const retry = operation('/admin/dead-letters/{service}/{id}/retry', 'post');
    expect(retry?.operationId).toBe('retryDeadLetter');
    expect(retry?.requestBody).toBeUndefined();
    expect(JSON.stringify(retry?.responses?.['400'])).toContain('DEAD_LETTER_UNDECODABLE');
    expect(document.components?.schemas).toHaveProperty('DeadLetterDetail');
  });
});
