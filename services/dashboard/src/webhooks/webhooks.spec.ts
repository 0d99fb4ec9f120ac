import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AttemptErrorClass,
  AttemptOutcome,
  AttemptTrigger,
  DeliveryStatus,
  WebhookAttemptSchema,
  WebhookConfigSchema,
  WebhookDeliverySchema,
  UrlDisabledReason,
  WebhookDestination,
  WebhookEvent,
  WebhookUrlHealthSchema,
  type WebhookAttempt,
  type WebhookConfig,
  type WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { alreadyExists, invalidArgument, notFound } from '@corridor/grpc';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, fakeMember } from '../../test/testing/fake-identity.js';

const WEBHOOK_ID = '5d0e6f1a-0000-4000-8000-00000000e001';
const SIGNING_SECRET = 'whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkYz1';
const DELIVERY_ID = '7a2c9e41-0000-4000-8000-00000000d001';
const OTHER_DELIVERY_ID = '7a2c9e41-0000-4000-8000-00000000d999';
const BODY =
  '{"event":"payout.failed","data":{"payout_id":"p1","reason":"<script>alert(1)</script>","amount":"150.00","currency":"NGN"}}';

type Changes<M> = Partial<Omit<M, '$typeName' | '$unknown'>>;

const webhookConfig = (changes: Changes<WebhookConfig> = {}): WebhookConfig =>
  create(WebhookConfigSchema, {
    id: WEBHOOK_ID,
    businessId: BUSINESS_ID,
    collectionUrl: 'https://platform.example/hooks/collections',
    payoutUrl: 'https://platform.example/hooks/payouts',
    kycUrl: '',
    signingSecret: SIGNING_SECRET,
    signingSecretLast4: SIGNING_SECRET.slice(-4),
    createdAt: timestampFromDate(new Date('2026-11-21T09:00:00Z')),
    updatedAt: timestampFromDate(new Date('2026-11-21T10:30:00Z')),
    ...changes,
  });

const attempt = (changes: Changes<WebhookAttempt> = {}): WebhookAttempt =>
  create(WebhookAttemptSchema, {
    number: 1,
    trigger: AttemptTrigger.SCHEDULED,
    startedAt: timestampFromDate(new Date('2026-11-21T10:30:00Z')),
    durationMs: 412,
    outcome: AttemptOutcome.FAILED,
    statusCode: 503,
    errorClass: AttemptErrorClass.HTTP_STATUS,
    errorMessage: 'the receiver answered 503',
    responseBody: 'try later',
    ...changes,
  });

const delivery = (changes: Changes<WebhookDelivery> = {}): WebhookDelivery =>
  create(WebhookDeliverySchema, {
    id: DELIVERY_ID,
    eventId: '8b3d0f52-0000-4000-8000-00000000a001',
    eventType: WebhookEvent.PAYOUT_FAILED,
    destination: WebhookDestination.PAYOUT_URL,
    url: 'https://platform.example/hooks/payouts',
    status: DeliveryStatus.PENDING,
    attemptCount: 1,
    nextAttemptAt: timestampFromDate(new Date('2026-11-21T10:35:00Z')),
    mock: false,
    body: BODY,
    createdAt: timestampFromDate(new Date('2026-11-21T10:29:00Z')),
    updatedAt: timestampFromDate(new Date('2026-11-21T10:30:00Z')),
    ...changes,
  });

const noRegistration = () => {
  throw notFound('WEBHOOK_NOT_FOUND', 'this business has no webhook configuration');
};

/** The POST forms of a page other than the layout's sign-out. */
const postForms = (html: string) =>
  (html.match(/<form[^>]*method="post"[^>]*>/g) ?? []).filter((form) => !form.includes('/sign-out'));

describe('webhooks', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  let viewer: TestBrowser;
  const callsOf = (method: string) => dashboard.notification.calls.filter((call) => call.method === method);

  beforeAll(async () => {
    dashboard = await startDashboard();
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    dashboard.identity.add(fakeMember(2, MemberRole.VIEWER, { email: 'viewer@example.com' }));
    owner = dashboard.browser();
    viewer = dashboard.browser();
    await owner.signIn('owner@example.com');
    await viewer.signIn('viewer@example.com');
  });
  afterAll(() => dashboard.close());
  beforeEach(() => {
    dashboard.notification.calls.length = 0;
    dashboard.notification.answers.clear();
    dashboard.identity.calls.length = 0;
    // A careless notification answering the secret on every read: the dashboard must still leave it out.
    dashboard.notification.answers.set('getWebhook', () => ({ webhook: webhookConfig() }));
  });

  describe('configuration', () => {
    it('says when nothing is registered and offers the register form', async () => {
      dashboard.notification.answers.set('getWebhook', noRegistration);
      const page = await owner.get('/webhooks');
      expect(page.status).toBe(200);
      expect(page.html).toContain('No webhook URLs are registered yet');
      expect(page.html).toContain('Register the URLs');
      expect(callsOf('getWebhook')[0]?.caller).toMatchObject({ businessId: BUSINESS_ID });
    });

    it('shows the registration without the signing secret', async () => {
      const page = await owner.get('/webhooks');
      expect(page.status).toBe(200);
      expect(page.html).toContain('https://platform.example/hooks/collections');
      expect(page.html).toContain('https://platform.example/hooks/payouts');
      expect(page.html).toContain('Ends in kYz1');
      expect(page.html).toContain('<time dateTime="2026-11-21T09:00:00.000Z">');
      expect(page.html).not.toContain(SIGNING_SECRET);
      expect(page.html).toContain('href="/webhooks/mock-event"');
    });

    it('registers, shows the secret once with a copy button, records it, and never shows it again', async () => {
      dashboard.notification.answers.set('getWebhook', noRegistration);
      dashboard.notification.answers.set('registerWebhook', () => ({
        webhook: webhookConfig({ kycUrl: 'https://platform.example/hooks/kyc' }),
      }));
      await owner.get('/webhooks');
      const page = await owner.post('/webhooks', {
        collection_url: ' https://platform.example/hooks/collections ',
        payout_url: 'https://platform.example/hooks/payouts',
        kyc_url: 'https://platform.example/hooks/kyc',
      });
      expect(page.status).toBe(201);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.html).toContain(`<code id="signing-secret" class="secret">${SIGNING_SECRET}</code>`);
      expect(page.html).toContain('data-copy="signing-secret"');
      const [register] = callsOf('registerWebhook');
      expect(register?.request).toMatchObject({
        collectionUrl: 'https://platform.example/hooks/collections',
        payoutUrl: 'https://platform.example/hooks/payouts',
        kycUrl: 'https://platform.example/hooks/kyc',
      });
      expect(register?.caller).toMatchObject({
        businessId: BUSINESS_ID,
        credentialId: expect.stringMatching(/^member:/),
      });
      const audits = dashboard.identity.callsOf('recordAudit');
      expect(audits[0]?.request).toMatchObject({
        action: 'webhook.registered',
        target: WEBHOOK_ID,
        businessId: BUSINESS_ID,
      });
      expect(JSON.stringify(audits)).not.toContain(SIGNING_SECRET);

      dashboard.notification.answers.set('getWebhook', () => ({ webhook: webhookConfig() }));
      const again = await owner.get('/webhooks');
      expect(again.status).toBe(200);
      expect(again.html).not.toContain(SIGNING_SECRET);
    });

    it('leaves kyc_url out of a registration without one', async () => {
      dashboard.notification.answers.set('getWebhook', noRegistration);
      dashboard.notification.answers.set('registerWebhook', () => ({ webhook: webhookConfig() }));
      await owner.get('/webhooks');
      await owner.post('/webhooks', {
        collection_url: 'https://platform.example/hooks/collections',
        payout_url: 'https://platform.example/hooks/payouts',
        kyc_url: '',
      });
      expect(callsOf('registerWebhook')[0]?.request.kycUrl).toBeUndefined();
    });

    it('shows notification’s refusal of a URL as the form again, 422, naming the field', async () => {
      dashboard.notification.answers.set('getWebhook', noRegistration);
      dashboard.notification.answers.set('registerWebhook', () => {
        throw invalidArgument('collection_url must reach only public addresses', {
          collection_url: ['must reach only public addresses: hooks.internal resolves to 10.0.0.7'],
        });
      });
      await owner.get('/webhooks');
      const page = await owner.post('/webhooks', {
        collection_url: 'https://hooks.internal/c',
        payout_url: 'https://platform.example/hooks/payouts',
      });
      expect(page.status).toBe(422);
      expect(page.html).toContain(
        'Collection URL must reach only public addresses: hooks.internal resolves to 10.0.0.7',
      );
      expect(page.html).toMatch(/id="field-collection_url"[^>]*aria-invalid="true"/);
      expect(page.html).toContain('value="https://hooks.internal/c"');
      expect(dashboard.identity.callsOf('recordAudit')).toHaveLength(0);
    });

    it('asks for the required URLs before notification is asked', async () => {
      dashboard.notification.answers.set('getWebhook', noRegistration);
      await owner.get('/webhooks');
      const page = await owner.post('/webhooks', { collection_url: 'https://platform.example/c', payout_url: '' });
      expect(page.status).toBe(422);
      expect(page.html).toContain('Enter the payout URL.');
      expect(callsOf('registerWebhook')).toHaveLength(0);
    });

    it('answers 409 when a registration appeared meanwhile', async () => {
      dashboard.notification.answers.set('getWebhook', noRegistration);
      dashboard.notification.answers.set('registerWebhook', () => {
        throw alreadyExists('WEBHOOK_ALREADY_REGISTERED', 'already registered');
      });
      await owner.get('/webhooks');
      const page = await owner.post('/webhooks', {
        collection_url: 'https://a.example/c',
        payout_url: 'https://a.example/p',
      });
      expect(page.status).toBe(409);
    });

    it('changes only the URLs that differ, without showing the secret, and records the change', async () => {
      dashboard.notification.answers.set('updateWebhook', () => ({
        webhook: webhookConfig({ kycUrl: 'https://platform.example/hooks/kyc' }),
      }));
      await owner.get('/webhooks');
      const page = await owner.post('/webhooks', {
        collection_url: 'https://platform.example/hooks/collections',
        payout_url: 'https://platform.example/hooks/payouts',
        kyc_url: 'https://platform.example/hooks/kyc',
      });
      expect(page).toMatchObject({ status: 303, location: '/webhooks?notice=updated' });
      expect(page.html).not.toContain(SIGNING_SECRET);
      const [update] = callsOf('updateWebhook');
      expect(update?.request).toMatchObject({
        webhookId: WEBHOOK_ID,
        kycUrlChange: { case: 'kycUrl', value: 'https://platform.example/hooks/kyc' },
      });
      expect(update?.request.collectionUrl).toBeUndefined();
      expect(update?.request.payoutUrl).toBeUndefined();
      expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({
        action: 'webhook.updated',
        target: WEBHOOK_ID,
        details: 'Webhook URLs changed: kyc_url https://platform.example/hooks/kyc',
      });
      const after = await owner.get('/webhooks?notice=updated');
      expect(after.html).toContain('The webhook URLs are changed');
      expect(after.html).not.toContain(SIGNING_SECRET);
    });

    it('removes kyc_url when it is emptied', async () => {
      dashboard.notification.answers.set('getWebhook', () => ({
        webhook: webhookConfig({ kycUrl: 'https://platform.example/hooks/kyc' }),
      }));
      dashboard.notification.answers.set('updateWebhook', () => ({ webhook: webhookConfig() }));
      await owner.get('/webhooks');
      await owner.post('/webhooks', {
        collection_url: 'https://platform.example/hooks/collections',
        payout_url: 'https://platform.example/hooks/payouts',
        kyc_url: '',
      });
      expect(callsOf('updateWebhook')[0]?.request).toMatchObject({
        kycUrlChange: { case: 'removeKycUrl', value: true },
      });
    });
  });

  describe('signing-secret rotation (decision 0065)', () => {
    it('rotates with the overlap chosen, shows the new secret once with the overlap, and records it', async () => {
      const until = new Date('2026-11-24T10:00:00.000Z');
      dashboard.notification.answers.set('rotateWebhookSecret', () => ({
        webhook: webhookConfig({
          previousSigningSecretLast4: 'old1',
          previousSigningSecretExpiresAt: timestampFromDate(until),
        }),
      }));
      const form = await owner.get('/webhooks');
      expect(form.html).toContain('action="/webhooks/signing-secret/rotate"');
      expect(form.html).toContain('<option value="24" selected="">24 hours</option>');
      const page = await owner.post('/webhooks/signing-secret/rotate', { overlap_hours: '72' });
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.html).toContain(`<code id="signing-secret" class="secret">${SIGNING_SECRET}</code>`);
      expect(page.html).toContain('The previous secret (ending in old1) signs beside it until');
      expect(page.html).toContain(`<time dateTime="${until.toISOString()}">`);
      expect(callsOf('rotateWebhookSecret')[0]?.request).toMatchObject({
        webhookId: WEBHOOK_ID,
        overlapSeconds: 259_200,
      });
      const audits = dashboard.identity.callsOf('recordAudit');
      expect(audits[0]?.request).toMatchObject({
        action: 'webhook.secret_rotated',
        target: WEBHOOK_ID,
        details: 'Signing secret rotated: …kYz1 signs now; the previous …old1 signs beside it for 72 h',
      });
      expect(JSON.stringify(audits)).not.toContain(SIGNING_SECRET);
    });

    it('refuses an overlap not offered with 422, without asking notification', async () => {
      await owner.get('/webhooks');
      const page = await owner.post('/webhooks/signing-secret/rotate', { overlap_hours: '9999' });
      expect(page.status).toBe(422);
      expect(page.html).toContain('Choose how long the previous secret keeps signing.');
      expect(callsOf('rotateWebhookSecret')).toHaveLength(0);
    });

    it('stops the previous secret on demand, records it and says so', async () => {
      dashboard.notification.answers.set('endWebhookSecretOverlap', () => ({
        webhook: webhookConfig({ signingSecret: '' }),
      }));
      await owner.get('/webhooks');
      const page = await owner.post('/webhooks/signing-secret/retire', {});
      expect(page).toMatchObject({ status: 303, location: '/webhooks?notice=retired' });
      expect(callsOf('endWebhookSecretOverlap')[0]?.request).toMatchObject({ webhookId: WEBHOOK_ID });
      expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({
        action: 'webhook.secret_overlap_ended',
        details: 'Previous signing secret retired: only …kYz1 signs',
      });
      expect((await owner.get('/webhooks?notice=retired')).html).toContain(
        'The previous signing secret no longer signs',
      );
    });
  });

  describe('endpoint health (decision 0068)', () => {
    const disabledAt = new Date('2026-11-26T08:00:00.000Z');
    const health = [
      create(WebhookUrlHealthSchema, {
        urlKind: WebhookDestination.COLLECTION_URL,
        disabled: true,
        disabledAt: timestampFromDate(disabledAt),
        reason: UrlDisabledReason.GONE,
        failingSince: timestampFromDate(disabledAt),
        consecutiveFailures: 1,
      }),
      create(WebhookUrlHealthSchema, { urlKind: WebhookDestination.PAYOUT_URL }),
    ];

    it('shows a disabled URL with its reason, the URL and when, and enables it with its backlog, recorded', async () => {
      dashboard.notification.answers.set('getWebhook', () => ({ webhook: webhookConfig({ urlHealth: health }) }));
      dashboard.notification.answers.set('enableWebhookUrl', () => ({
        webhook: webhookConfig({
          urlHealth: [create(WebhookUrlHealthSchema, { urlKind: WebhookDestination.COLLECTION_URL }), health[1]!],
        }),
        queued: 3,
      }));
      const page = await owner.get('/webhooks');
      expect(page.html).toContain(
        'Collection URL <code>https://platform.example/hooks/collections</code> is disabled since',
      );
      expect(page.html).toContain(`<time dateTime="${disabledAt.toISOString()}">`);
      expect(page.html).toContain('your receiver answered 410 Gone');
      expect(page.html).toContain('Payout URL: enabled');
      expect(page.html).toContain('action="/webhooks/endpoint/enable"');
      expect(page.html).toContain('<option value="yes" selected="">Send them now, in order</option>');

      const enabled = await owner.post('/webhooks/endpoint/enable', { kind: 'collection_url', replay: 'yes' });
      expect(enabled.status).toBe(200);
      expect(enabled.html).toContain('The Collection URL is enabled; 3 deliveries it held are queued');
      expect(enabled.html).not.toContain('is disabled since');
      expect(callsOf('enableWebhookUrl')[0]?.request).toMatchObject({
        webhookId: WEBHOOK_ID,
        urlKind: WebhookDestination.COLLECTION_URL,
        replay: true,
      });
      expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({
        action: 'webhook.url_enabled',
        target: WEBHOOK_ID,
        details: 'collection_url enabled: 3 held deliveries queued',
      });
    });

    it('refuses a URL or a backlog choice not offered with 422, without asking notification; a viewer sees no control', async () => {
      dashboard.notification.answers.set('getWebhook', () => ({ webhook: webhookConfig({ urlHealth: health }) }));
      await owner.get('/webhooks');
      for (const fields of [
        { kind: 'callback_url', replay: 'yes' },
        { kind: 'payout_url', replay: 'maybe' },
      ]) {
        const page = await owner.post('/webhooks/endpoint/enable', fields);
        expect(page.status).toBe(422);
        expect(page.html).toContain('Choose the URL to enable and what to do with its backlog.');
      }
      expect(callsOf('enableWebhookUrl')).toHaveLength(0);
      const read = await viewer.get('/webhooks');
      expect(read.html).toContain('is disabled since');
      expect(read.html).not.toContain('/webhooks/endpoint/enable');
      expect((await viewer.post('/webhooks/endpoint/enable', { kind: 'collection_url', replay: 'yes' })).status).toBe(
        403,
      );
    });

    it('marks a held delivery in the log and on its page', async () => {
      const held = delivery({ skippedReason: 'endpoint_disabled', nextAttemptAt: undefined });
      dashboard.notification.answers.set('listDeliveries', () => ({ deliveries: [held], cursorPage: { limit: 15 } }));
      dashboard.notification.answers.set('getDelivery', () => ({ delivery: held }));
      expect((await owner.get('/webhooks/deliveries')).html).toContain('pending (held: URL disabled)');
      expect((await owner.get(`/webhooks/deliveries/${DELIVERY_ID}`)).html).toContain(
        'not attempted while its URL is disabled',
      );
    });
  });

  describe('deliveries', () => {
    it('lists deliveries with every filter and the cursor passed, rows linking to each delivery', async () => {
      dashboard.notification.answers.set('listDeliveries', () => ({
        deliveries: [delivery(), delivery({ id: OTHER_DELIVERY_ID, mock: true, status: DeliveryStatus.FAILED })],
        cursorPage: { nextCursor: 'next-cur', previousCursor: 'prev-cur', limit: 15 },
      }));
      const page = await owner.get(
        '/webhooks/deliveries?status=failed&event=payout.failed&from=2026-11-20T00:00&to=2026-11-22&cursor=abc',
      );
      expect(page.status).toBe(200);
      const [list] = callsOf('listDeliveries');
      expect(list?.request).toMatchObject({
        status: DeliveryStatus.FAILED,
        eventType: WebhookEvent.PAYOUT_FAILED,
        createdFrom: { seconds: BigInt(Date.parse('2026-11-20T00:00:00Z') / 1000) },
        createdTo: { seconds: BigInt(Date.parse('2026-11-22T00:00:00Z') / 1000) },
        cursorPage: { cursor: 'abc' },
      });
      expect(list?.caller).toMatchObject({ businessId: BUSINESS_ID });
      expect(page.html).toContain(`href="/webhooks/deliveries/${DELIVERY_ID}"`);
      expect(page.html).toContain('payout.failed');
      expect(page.html).toContain('(mock)');
      expect(page.html).toContain('<form aria-label="Filter deliveries" action="/webhooks/deliveries" method="get">');
      expect(page.html).toContain('<option value="failed" selected="">failed</option>');
      expect(page.html).toContain(
        'href="/webhooks/deliveries?status=failed&amp;event=payout.failed&amp;from=2026-11-20T00%3A00&amp;to=2026-11-22&amp;cursor=next-cur">Next page',
      );
      expect(page.html).toContain('cursor=prev-cur">Previous page');
      expect(postForms(page.html)).toEqual(['<form action="/webhooks/deliveries/replay-failed" method="post">']);
    });

    it('refuses unreadable filters with 422 naming them, without asking notification', async () => {
      const page = await owner.get('/webhooks/deliveries?from=yesterday&status=lost');
      expect(page.status).toBe(422);
      expect(page.html).toContain('Created from must be a date and time');
      expect(page.html).toContain('Status must be one of pending, succeeded, failed.');
      const backwards = await owner.get('/webhooks/deliveries?from=2026-11-22&to=2026-11-21');
      expect(backwards.status).toBe(422);
      expect(backwards.html).toContain('Created from must be before Created before.');
      expect((await owner.get('/webhooks/deliveries?from=2026-02-30')).status).toBe(422);
      expect(callsOf('listDeliveries')).toHaveLength(0);
    });

    it('shows a cursor notification refuses as 422, not 500', async () => {
      dashboard.notification.answers.set('listDeliveries', () => {
        throw invalidArgument('cursor is not a cursor of this list', { cursor: ['is not a cursor of this list'] });
      });
      const page = await owner.get('/webhooks/deliveries?cursor=forged');
      expect(page.status).toBe(422);
      expect(page.html).toContain('Page is not a cursor of this list');
    });

    it('shows one delivery: its body as text in <pre> and every attempt', async () => {
      dashboard.notification.answers.set('getDelivery', () => ({
        delivery: delivery({
          attempts: [
            attempt(),
            attempt({
              number: 2,
              trigger: AttemptTrigger.REPLAY,
              outcome: AttemptOutcome.FAILED,
              statusCode: 0,
              durationMs: 5000,
              errorClass: AttemptErrorClass.TIMEOUT,
              errorMessage: 'no answer within 30 s',
              responseBody: '',
            }),
          ],
          attemptCount: 2,
        }),
      }));
      const page = await owner.get(`/webhooks/deliveries/${DELIVERY_ID}`);
      expect(page.status).toBe(200);
      expect(callsOf('getDelivery')[0]).toMatchObject({
        request: { deliveryId: DELIVERY_ID },
        caller: { businessId: BUSINESS_ID },
      });
      expect(page.html).not.toContain('<script>alert(1)</script>');
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.html).toContain(
        '<pre tabindex="0" aria-label="Delivery body"><code>{&quot;event&quot;:&quot;payout.failed&quot;',
      );
      expect(page.html).toContain('https://platform.example/hooks/payouts');
      expect(page.html).toContain('<td>503</td>');
      expect(page.html).toContain('412 ms');
      expect(page.html).toContain('http_status: the receiver answered 503');
      expect(page.html).toContain('timeout: no answer within 30 s');
      expect(page.html).toContain('<td>replay</td>');
      expect(page.html).toContain('<time dateTime="2026-11-21T10:35:00.000Z">');
      expect(page.html).toContain(`action="/webhooks/deliveries/${DELIVERY_ID}/replay"`);
    });

    it('answers 404 for another business’s delivery, and for a malformed id without asking', async () => {
      dashboard.notification.answers.set('getDelivery', () => {
        throw notFound('DELIVERY_NOT_FOUND', 'webhook delivery not found');
      });
      expect((await owner.get(`/webhooks/deliveries/${OTHER_DELIVERY_ID}`)).status).toBe(404);
      expect(callsOf('getDelivery')).toHaveLength(1);
      const malformed = await owner.get('/webhooks/deliveries/not-a-delivery');
      expect(malformed.status).toBe(404);
      expect(malformed.html).toContain('belongs to another business');
      await owner.get('/webhooks');
      expect((await owner.post('/webhooks/deliveries/not-a-delivery/replay')).status).toBe(404);
      expect(callsOf('getDelivery')).toHaveLength(1);
      expect(callsOf('replayDelivery')).toHaveLength(0);
    });

    it('replays a delivery for the member’s business and redirects to it with a notice', async () => {
      dashboard.notification.answers.set('replayDelivery', () => {
        const made = attempt({
          number: 2,
          trigger: AttemptTrigger.REPLAY,
          outcome: AttemptOutcome.SUCCEEDED,
          statusCode: 200,
        });
        return { delivery: delivery({ status: DeliveryStatus.SUCCEEDED, attempts: [attempt(), made] }), attempt: made };
      });
      await owner.get('/webhooks');
      const page = await owner.post(`/webhooks/deliveries/${DELIVERY_ID}/replay`);
      expect(page).toMatchObject({
        status: 303,
        location: `/webhooks/deliveries/${DELIVERY_ID}?notice=replay-succeeded`,
      });
      expect(callsOf('replayDelivery')[0]).toMatchObject({
        request: { deliveryId: DELIVERY_ID },
        caller: { businessId: BUSINESS_ID, credentialId: 'member:00000000-0000-4000-8000-000000000001' },
      });
      expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({
        action: 'webhook.delivery_replayed',
        target: DELIVERY_ID,
      });
      dashboard.notification.answers.set('getDelivery', () => ({ delivery: delivery() }));
      expect((await owner.get(`/webhooks/deliveries/${DELIVERY_ID}?notice=replay-succeeded`)).html).toContain(
        'Replayed: your receiver answered with a 2xx',
      );
    });

    it('queues failed deliveries of a window and says how many', async () => {
      dashboard.notification.answers.set('replayFailedDeliveries', () => ({ queued: 3 }));
      await owner.get('/webhooks/deliveries');
      const page = await owner.post('/webhooks/deliveries/replay-failed', { since: '2026-11-20T09:00', until: '' });
      expect(page.status).toBe(200);
      expect(page.html).toContain('3 failed deliveries were queued for one more attempt.');
      const [replay] = callsOf('replayFailedDeliveries');
      expect(replay?.request).toMatchObject({ since: timestampFromDate(new Date('2026-11-20T09:00:00Z')) });
      expect(replay?.request.until).toBeUndefined();
      expect(replay?.caller).toMatchObject({ businessId: BUSINESS_ID });
      expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({
        action: 'webhook.failed_deliveries_replayed',
      });
    });

    it('refuses a bad window with 422 naming it', async () => {
      await owner.get('/webhooks/deliveries');
      const backwards = await owner.post('/webhooks/deliveries/replay-failed', {
        since: '2026-11-22T00:00',
        until: '2026-11-21T00:00',
      });
      expect(backwards.status).toBe(422);
      expect(backwards.html).toContain('Created before must be after Failed deliveries created from.');
      const missing = await owner.post('/webhooks/deliveries/replay-failed', { since: '', until: '' });
      expect(missing.status).toBe(422);
      expect(missing.html).toContain('Failed deliveries created from is required.');
      expect(callsOf('replayFailedDeliveries')).toHaveLength(0);
    });
  });

  describe('mock events (sandbox)', () => {
    it('sends the chosen event and redirects to the log with a notice naming it', async () => {
      dashboard.notification.answers.set('triggerMockWebhook', () => {
        const made = attempt({ trigger: AttemptTrigger.MOCK, outcome: AttemptOutcome.SUCCEEDED, statusCode: 200 });
        return { delivery: delivery({ mock: true, attempts: [made] }), attempt: made };
      });
      const form = await owner.get('/webhooks/mock-event');
      expect(form.status).toBe(200);
      expect(form.html).toContain('<option value="merchant.kyc.session.completed">');
      const page = await owner.post('/webhooks/mock-event', { event: 'payout.failed', data: '{"reason":"x"}' });
      expect(page).toMatchObject({
        status: 303,
        location: '/webhooks/deliveries?notice=mock-succeeded&event=payout.failed',
      });
      expect(callsOf('triggerMockWebhook')[0]).toMatchObject({
        request: { event: WebhookEvent.PAYOUT_FAILED, data: { reason: 'x' } },
        caller: { businessId: BUSINESS_ID },
      });
      expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({ action: 'webhook.mock_sent' });
      dashboard.notification.answers.set('listDeliveries', () => ({ deliveries: [], cursorPage: { limit: 15 } }));
      const log = await owner.get(page.location ?? '');
      expect(log.html).toContain('A mock payout.failed event was sent');
    });

    it('shows the form again for an unknown event, bad JSON, or a field notification refuses', async () => {
      await owner.get('/webhooks/mock-event');
      expect((await owner.post('/webhooks/mock-event', { event: 'payout.stolen' })).status).toBe(422);
      const json = await owner.post('/webhooks/mock-event', { event: 'payout.failed', data: '[1]' });
      expect(json.status).toBe(422);
      expect(json.html).toContain('Fields to replace must be a JSON object');
      expect(callsOf('triggerMockWebhook')).toHaveLength(0);
      dashboard.notification.answers.set('triggerMockWebhook', () => {
        throw invalidArgument('data.colour is not a field of payout.failed', {
          'data.colour': ['is not a field of payout.failed'],
        });
      });
      const refused = await owner.post('/webhooks/mock-event', { event: 'payout.failed', data: '{"colour":1}' });
      expect(refused.status).toBe(422);
      expect(refused.html).toContain('Fields to replace: colour is not a field of payout.failed');
      dashboard.notification.answers.set('triggerMockWebhook', noRegistration);
      const unregistered = await owner.post('/webhooks/mock-event', { event: 'payout.failed' });
      expect(unregistered.status).toBe(409);
      expect(unregistered.html).toContain('Register your webhook URLs');
    });
  });

  describe('roles and forms', () => {
    it('a viewer reads every page but sees no forms or mock link', async () => {
      dashboard.notification.answers.set('listDeliveries', () => ({
        deliveries: [delivery()],
        cursorPage: { limit: 15 },
      }));
      dashboard.notification.answers.set('getDelivery', () => ({ delivery: delivery({ attempts: [attempt()] }) }));
      for (const path of ['/webhooks', '/webhooks/deliveries', `/webhooks/deliveries/${DELIVERY_ID}`]) {
        const page = await viewer.get(path);
        expect(page.status).toBe(200);
        expect(postForms(page.html)).toEqual([]);
        expect(page.html).not.toContain('/webhooks/mock-event');
        expect(page.html).not.toContain('<button type="submit">Replay');
      }
      expect((await viewer.get('/webhooks/mock-event')).status).toBe(403);
    });

    it('a viewer gets 403 on every POST and nothing is asked of notification', async () => {
      await viewer.get('/webhooks');
      const posts: [string, Record<string, string>][] = [
        ['/webhooks', { collection_url: 'https://a.example/c', payout_url: 'https://a.example/p' }],
        [`/webhooks/deliveries/${DELIVERY_ID}/replay`, {}],
        ['/webhooks/deliveries/replay-failed', { since: '2026-11-20T00:00' }],
        ['/webhooks/mock-event', { event: 'payout.failed' }],
      ];
      for (const [path, fields] of posts) expect((await viewer.post(path, fields)).status).toBe(403);
      expect(dashboard.notification.calls.filter((call) => call.method !== 'getWebhook')).toEqual([]);
    });

    it('refuses a POST without the CSRF token', async () => {
      await owner.get('/webhooks');
      const page = await owner.post(`/webhooks/deliveries/${DELIVERY_ID}/replay`, { csrf_token: '' });
      expect(page.status).toBe(403);
      expect(callsOf('replayDelivery')).toHaveLength(0);
    });
  });
});

describe('webhooks in production', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;

  beforeAll(async () => {
    dashboard = await startDashboard({ environment: 'production' });
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com', totpEnabled: true }));
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
  });
  afterAll(() => dashboard.close());

  it('has no mock event route and renders no link to it', async () => {
    dashboard.notification.answers.set('getWebhook', () => ({ webhook: webhookConfig() }));
    dashboard.notification.answers.set('listDeliveries', () => ({ deliveries: [], cursorPage: { limit: 15 } }));
    const page = await owner.get('/webhooks');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('/webhooks/mock-event');
    expect((await owner.get('/webhooks/deliveries')).html).not.toContain('/webhooks/mock-event');
    expect((await owner.get('/webhooks/mock-event')).status).toBe(404);
    await owner.get('/webhooks');
    expect((await owner.post('/webhooks/mock-event', { event: 'payout.failed' })).status).toBe(404);
    expect(dashboard.notification.calls.filter((call) => call.method === 'triggerMockWebhook')).toEqual([]);
  });
});
