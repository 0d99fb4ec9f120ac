import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DomainError, failedPrecondition, notFound, Status } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import express from 'express';
import { requestId } from '../http/common.js';
import { COLLECTION_ID, PAYMENT_TOKEN, paymentRequestView } from '../../test/public/payments/collection.fixtures.js';
import { startFakePayments } from '../../test/public/payments/fake-payments-service.js';
import { formatAmount, returnUrlOf } from './payment-page-html.js';
import { paymentPageRouter } from './payment-page-router.js';

/** The payer's page of a money request, against a fake payments on loopback. */
describe('the payment page /pay/{token}', () => {
  let service: Awaited<ReturnType<typeof startFakePayments>>;
  let server: ReturnType<express.Express['listen']>;
  let base: string;

  beforeAll(async () => {
    service = await startFakePayments();
    const app = express();
    app.use(requestId);
    app.use(
      paymentPageRouter({
        clients: service.clients,
        environment: 'sandbox',
        logger: createLogger('test', { level: 'silent' }),
      }),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await service.stop();
  });
  beforeEach(() => {
    service.calls.length = 0;
    service.answers.clear();
  });

  const page = `/pay/${PAYMENT_TOKEN}`;
  const open = async (path: string, method = 'GET') => {
    const response = await fetch(`${base}${path}`, { method, redirect: 'manual' });
    return { status: response.status, headers: response.headers, html: await response.text() };
  };
  const answered = (status: string) => `transaction_id=${COLLECTION_ID}&status=${status}`;

  it('shows who asks, the amount in its currency, what for, the status and the expiry, with Approve and Decline', async () => {
    const { status, headers, html } = await open(page);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<strong>Acme Stores Ltd</strong> asks you to pay');
    expect(html).toContain('NGN 15,000.00');
    expect(html).toContain('<dd>Order 77</dd>');
    expect(html).toContain('<dd>Awaiting your answer</dd>');
    expect(html).toContain('<dd>23 Nov 2026, 09:00 UTC</dd>');
    expect(html).toContain(`<form method="post" action="/pay/${PAYMENT_TOKEN}/approve">`);
    expect(html).toContain(`<form method="post" action="/pay/${PAYMENT_TOKEN}/decline">`);
    expect(html).not.toMatch(/<script/i);
    expect(service.calls).toHaveLength(1);
    expect(service.calls[0]).toMatchObject({ method: 'getPaymentRequest', request: { paymentToken: PAYMENT_TOKEN } });
    // No business and no API token: the payment token alone names the request.
    expect(service.calls[0]?.caller).toMatchObject({ environment: 'sandbox', businessId: undefined });
    expect(service.calls[0]?.caller.requestId).toBe(headers.get('x-request-id'));
  });

  it('is served under a strict policy: no script, its one stylesheet by hash, not framed, no Referer carrying the token', async () => {
    const { headers, html } = await open(page);
    const policy = headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self' https:");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('script-src');
    const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
    expect(policy).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('escapes every value payments sends', async () => {
    service.answers.set('getPaymentRequest', () => ({
      request: paymentRequestView({
        businessName: '<script>alert("x")</script> & Sons',
        description: `<img src=x onerror='alert(1)'>`,
        currency: 'N"GN',
      }),
    }));
    const { html } = await open(page);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons');
    expect(html).toContain('&lt;img src=x onerror=&#39;alert(1)&#39;&gt;');
    expect(html).toContain('N&quot;GN 15,000.00');
  });

  it('shows a request no longer pending without Approve or Decline, with the way back to the business', async () => {
    service.answers.set('getPaymentRequest', () => ({ request: paymentRequestView({ status: 'SUCCESSFUL' }) }));
    const { status, html } = await open(page);
    expect(status).toBe(200);
    expect(html).toContain('<dd>Paid</dd>');
    expect(html).not.toContain('<form');
    expect(html).toContain(
      `href="https://shop.example/return?order=77&amp;${answered('SUCCESSFUL').replace('&', '&amp;')}"`,
    );
  });

  it.each([
    ['too short', 'abc123'],
    ['too long', 'a'.repeat(101)],
    ['not url-safe base64', `${PAYMENT_TOKEN.slice(0, 30)}+/=`],
    ['with a dot', `${PAYMENT_TOKEN.slice(0, 30)}.js`],
  ])('answers a token %s with the not-found page, without asking payments', async (_case, token) => {
    const { status, html, headers } = await open(`/pay/${encodeURIComponent(token)}`);
    expect(status).toBe(404);
    expect(html).toContain('Payment request not found');
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await open(`/pay/${encodeURIComponent(token)}/approve`, 'POST')).status).toBe(404);
    expect(service.calls).toHaveLength(0);
  });

  it('answers a token payments does not know with the not-found page', async () => {
    service.answers.set('getPaymentRequest', () => {
      throw notFound('PAYMENT_REQUEST_NOT_FOUND', 'no payment request for this token');
    });
    service.answers.set('authorizePaymentRequest', () => {
      throw notFound('PAYMENT_REQUEST_NOT_FOUND', 'no payment request for this token');
    });
    for (const [path, method] of [
      [page, 'GET'],
      [`${page}/approve`, 'POST'],
    ] as const) {
      const { status, html } = await open(path, method);
      expect(status).toBe(404);
      expect(html).toContain('This payment link is not valid');
    }
  });

  it('Approve authorizes the payment and sends the payer to redirect_url with transaction_id and status (303)', async () => {
    const { status, headers } = await open(`${page}/approve`, 'POST');
    expect(status).toBe(303);
    expect(headers.get('location')).toBe(`https://shop.example/return?order=77&${answered('SUCCESSFUL')}`);
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(service.calls[0]).toMatchObject({
      method: 'authorizePaymentRequest',
      request: { paymentToken: PAYMENT_TOKEN, approve: true },
    });
  });

  it('Decline declines it and sends the payer back with status FAILED', async () => {
    const { status, headers } = await open(`${page}/decline`, 'POST');
    expect(status).toBe(303);
    expect(headers.get('location')).toBe(`https://shop.example/return?order=77&${answered('FAILED')}`);
    expect(service.calls[0]?.request).toMatchObject({ paymentToken: PAYMENT_TOKEN, approve: false });
  });

  it('keeps the query and fragment redirect_url already has, and adds a query to one without', async () => {
    for (const [redirectUrl, expected] of [
      ['https://shop.example/r?a=1&b=x%20y#done', `https://shop.example/r?a=1&b=x%20y&${answered('SUCCESSFUL')}#done`],
      ['https://shop.example/thanks', `https://shop.example/thanks?${answered('SUCCESSFUL')}`],
      ['https://shop.example/thanks?', `https://shop.example/thanks?${answered('SUCCESSFUL')}`],
    ]) {
      service.answers.set('authorizePaymentRequest', () => ({
        request: paymentRequestView({ status: 'SUCCESSFUL', redirectUrl }),
      }));
      expect((await open(`${page}/approve`, 'POST')).headers.get('location')).toBe(expected);
    }
  });

  it('without redirect_url, answers a page saying how it ended', async () => {
    service.answers.set('authorizePaymentRequest', () => ({
      request: paymentRequestView({ status: 'SUCCESSFUL', redirectUrl: undefined }),
    }));
    const paid = await open(`${page}/approve`, 'POST');
    expect(paid.status).toBe(200);
    expect(paid.html).toContain('<h1>Payment successful</h1>');
    expect(paid.html).not.toContain('<form');
    service.answers.set('authorizePaymentRequest', () => ({
      request: paymentRequestView({ status: 'FAILED', redirectUrl: undefined }),
    }));
    expect((await open(`${page}/decline`, 'POST')).html).toContain('<h1>Payment not made</h1>');
  });

  it('answering a request that is no longer pending shows its status and the way back with the outcome', async () => {
    service.answers.set('authorizePaymentRequest', () => {
      throw failedPrecondition('PAYMENT_REQUEST_NOT_PENDING', 'the payment request is EXPIRED');
    });
    service.answers.set('getPaymentRequest', () => ({ request: paymentRequestView({ status: 'EXPIRED' }) }));
    const { status, html } = await open(`${page}/approve`, 'POST');
    expect(status).toBe(400);
    expect(html).toContain('can no longer be answered');
    expect(html).toContain('It is EXPIRED');
    expect(html).toContain(
      `href="https://shop.example/return?order=77&amp;${answered('EXPIRED').replace('&', '&amp;')}"`,
    );
    expect(service.calls.map((call) => call.method)).toEqual(['authorizePaymentRequest', 'getPaymentRequest']);
  });

  it('a request no longer pending without redirect_url shows its status and no link', async () => {
    service.answers.set('authorizePaymentRequest', () => {
      throw failedPrecondition('PAYMENT_REQUEST_NOT_PENDING', 'the payment request is SUCCESSFUL');
    });
    service.answers.set('getPaymentRequest', () => ({
      request: paymentRequestView({ status: 'SUCCESSFUL', redirectUrl: undefined }),
    }));
    const { status, html } = await open(`${page}/decline`, 'POST');
    expect(status).toBe(400);
    expect(html).toContain('It is SUCCESSFUL');
    expect(html).not.toContain('<a ');
  });

  it('answers a page, not JSON, when payments is unavailable (503) or fails (500)', async () => {
    service.answers.set('getPaymentRequest', () => {
      throw new DomainError(Status.UNAVAILABLE, 'UPSTREAM_UNAVAILABLE', 'database down');
    });
    const unavailable = await open(page);
    expect(unavailable.status).toBe(503);
    expect(unavailable.html).toContain('Please try again');
    expect(unavailable.html).not.toContain('database down');
    service.answers.set('authorizePaymentRequest', () => {
      throw new DomainError(Status.INTERNAL, 'INTERNAL', 'a defect');
    });
    const failed = await open(`${page}/approve`, 'POST');
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(failed.html).toContain('Something went wrong');
  });
});

describe('the payment page’s values', () => {
  it.each([
    [1_500_000n, 'NGN', 'NGN 15,000.00'],
    [123_456_789n, 'GBP', 'GBP 1,234,567.89'],
    [5n, 'EUR', 'EUR 0.05'],
    [100n, 'USD', 'USD 1.00'],
  ])('formats %s minor units of %s as %s', (amount, currency, text) => {
    expect(formatAmount(amount, currency)).toBe(text);
  });

  it('sends the payer back only to an https redirect_url', () => {
    expect(returnUrlOf(paymentRequestView({ redirectUrl: 'http://shop.example/r' }))).toBeUndefined();
    expect(returnUrlOf(paymentRequestView({ redirectUrl: 'javascript:alert(1)' }))).toBeUndefined();
    expect(returnUrlOf(paymentRequestView({ redirectUrl: 'not a url' }))).toBeUndefined();
    expect(returnUrlOf(paymentRequestView({ redirectUrl: undefined }))).toBeUndefined();
    expect(returnUrlOf(paymentRequestView({ status: 'expired' }))).toBe(
      `https://shop.example/return?order=77&transaction_id=${COLLECTION_ID}&status=EXPIRED`,
    );
  });
});
