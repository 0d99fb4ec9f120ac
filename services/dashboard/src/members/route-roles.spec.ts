import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { KycResult, KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import {
  AttemptOutcome,
  AttemptTrigger,
  DeliveryStatus,
  WebhookAttemptSchema,
  WebhookConfigSchema,
  WebhookDeliverySchema,
  WebhookDestination,
  WebhookEvent,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import {
  CollectionDetailsSchema,
  CollectionMethod,
  RefundSchema,
  RefundStatus,
  VirtualAccountSchema,
  VirtualAccountStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { CurrencySchema, WalletSchema } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  TransactionSchema,
  TransactionStatus,
  TransactionType,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import type { Express } from 'express';
import { dashboardApp } from '../app.js';
import { businessCustomer, CUSTOMER_ID } from '../../test/customers/customer.fixtures.js';
import { kycSession, SESSION_ID } from '../../test/kyc-sessions/kyc-session.fixtures.js';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, CLIENT_ID, fakeMember } from '../../test/testing/fake-identity.js';
import type { Capability, Environment, RoleName } from './roles.js';

const TARGET = '00000000-0000-4000-8000-000000000009';
const DELIVERY_ID = '7a2c9e41-0000-4000-8000-00000000d001';
const COLLECTION_ID = '9e3a8ca3-0000-4000-8000-00000000f001';
const VIRTUAL_ACCOUNT_ID = '8d2f7b92-0000-4000-8000-00000000e001';
const REFUND_ID = 'af4b9db4-0000-4000-8000-000000001001';
const IDEMPOTENCY_KEY = '3f0c8a52-0000-4000-8000-00000000aa01';
const CREATED = timestampFromDate(new Date('2026-11-21T09:00:00.000Z'));

/** What each :parameter of a route pattern is in these requests: a record of the member's business. */
const PARAMS: Record<string, string> = {
  clientId: CLIENT_ID,
  memberId: TARGET,
  customerId: CUSTOMER_ID,
  sessionId: SESSION_ID,
  deliveryId: DELIVERY_ID,
  transactionId: COLLECTION_ID,
  virtualAccountId: VIRTUAL_ACCOUNT_ID,
};

interface GuardedRoute {
  capability: Capability;
  method: 'GET' | 'POST';
  /** The path as the router registers it. */
  pattern: string;
  query?: string;
  /** Enough to pass the form's checks, so an allowed role reaches the page's work. */
  fields?: Record<string, string>;
  /** What an allowed role gets with the fakes' answers below (per environment where they differ). */
  status: number | Record<Environment, number>;
  /** 404 for everyone in production, whatever the role: the route does not exist there. */
  sandboxOnly?: true;
  /** 404 for everyone in the sandbox: the route is production's alone. */
  productionOnly?: true;
}

/** The route does not exist in this environment: everyone gets 404 and no service is asked. */
const absentIn = (route: GuardedRoute, environment: Environment) =>
  (route.sandboxOnly === true && environment === 'production') ||
  (route.productionOnly === true && environment === 'sandbox');

/** Every route that needs a role. A route of the app in neither this list nor PUBLIC fails the spec. */
const ROUTES: GuardedRoute[] = [
  { capability: 'read', method: 'GET', pattern: '/', status: 200 },
  { capability: 'read', method: 'GET', pattern: '/api-keys', status: 200 },
  { capability: 'manage_keys', method: 'GET', pattern: '/api-keys/new', status: 200 },
  { capability: 'manage_keys', method: 'POST', pattern: '/api-keys', fields: { bundles: 'read-only' }, status: 201 },
  { capability: 'manage_keys', method: 'GET', pattern: '/api-keys/:clientId/rotate', status: 200 },
  { capability: 'manage_keys', method: 'POST', pattern: '/api-keys/:clientId/rotate', status: 200 },
  { capability: 'manage_keys', method: 'GET', pattern: '/api-keys/:clientId/revoke', status: 200 },
  { capability: 'manage_keys', method: 'POST', pattern: '/api-keys/:clientId/revoke', status: 303 },
  { capability: 'manage_keys', method: 'GET', pattern: '/api-keys/ip-allowlist', status: 200, productionOnly: true },
  {
    capability: 'manage_keys',
    method: 'POST',
    pattern: '/api-keys/ip-allowlist',
    fields: { ip_allowlist: '203.0.113.0/24' },
    status: 303,
    productionOnly: true,
  },

  { capability: 'read', method: 'GET', pattern: '/customers', status: 200 },
  { capability: 'read', method: 'GET', pattern: '/customers/go', query: `customer_id=${CUSTOMER_ID}`, status: 303 },
  { capability: 'read', method: 'GET', pattern: '/customers/:customerId', status: 200 },
  { capability: 'read', method: 'GET', pattern: '/kyc-sessions', status: 200 },
  { capability: 'read', method: 'GET', pattern: '/kyc-sessions/:sessionId', status: 200 },

  { capability: 'read', method: 'GET', pattern: '/webhooks', status: 200 },
  {
    capability: 'manage_webhooks',
    method: 'POST',
    pattern: '/webhooks',
    fields: {
      collection_url: 'https://platform.example/hooks/collections',
      payout_url: 'https://platform.example/hooks/payouts-v2',
      kyc_url: '',
    },
    status: 303,
  },
  {
    capability: 'manage_webhooks',
    method: 'POST',
    pattern: '/webhooks/signing-secret/rotate',
    fields: { overlap_hours: '24' },
    status: 200,
  },
  { capability: 'manage_webhooks', method: 'POST', pattern: '/webhooks/signing-secret/retire', status: 303 },
  {
    capability: 'manage_webhooks',
    method: 'POST',
    pattern: '/webhooks/endpoint/enable',
    fields: { kind: 'collection_url', replay: 'yes' },
    status: 200,
  },
  { capability: 'read', method: 'GET', pattern: '/webhooks/deliveries', status: 200 },
  {
    capability: 'manage_webhooks',
    method: 'POST',
    pattern: '/webhooks/deliveries/replay-failed',
    fields: { since: '2026-11-21T00:00', until: '2026-11-22T00:00' },
    status: 200,
  },
  { capability: 'read', method: 'GET', pattern: '/webhooks/deliveries/:deliveryId', status: 200 },
  { capability: 'manage_webhooks', method: 'POST', pattern: '/webhooks/deliveries/:deliveryId/replay', status: 303 },
  { capability: 'manage_webhooks', method: 'GET', pattern: '/webhooks/mock-event', status: 200, sandboxOnly: true },
  {
    capability: 'manage_webhooks',
    method: 'POST',
    pattern: '/webhooks/mock-event',
    fields: { event: 'payout.failed', data: '{"reason": "insufficient funds"}' },
    status: 303,
    sandboxOnly: true,
  },

  { capability: 'sandbox_tools', method: 'GET', pattern: '/sandbox', status: 200, sandboxOnly: true },
  {
    capability: 'sandbox_tools',
    method: 'POST',
    pattern: '/sandbox/incoming-transfer',
    fields: {
      virtual_account_id: VIRTUAL_ACCOUNT_ID,
      amount: '1000.50',
      sender_name: 'Chidi Eze',
      idempotency_key: IDEMPOTENCY_KEY,
    },
    status: 201,
    sandboxOnly: true,
  },
  {
    capability: 'sandbox_tools',
    method: 'POST',
    pattern: '/sandbox/money-request',
    fields: { collection_id: COLLECTION_ID, outcome: 'pay', idempotency_key: IDEMPOTENCY_KEY },
    status: 200,
    sandboxOnly: true,
  },
  {
    capability: 'sandbox_tools',
    method: 'POST',
    pattern: '/sandbox/customer-review',
    fields: { customer_id: CUSTOMER_ID, verdict: 'VERIFIED', comment: '', idempotency_key: IDEMPOTENCY_KEY },
    status: 200,
    sandboxOnly: true,
  },
  {
    capability: 'sandbox_tools',
    method: 'POST',
    pattern: '/sandbox/kyc-verdict',
    fields: { session_id: SESSION_ID, result: 'APPROVED', idempotency_key: IDEMPOTENCY_KEY },
    status: 200,
    sandboxOnly: true,
  },

  { capability: 'read', method: 'GET', pattern: '/money', status: 200 },
  { capability: 'read', method: 'GET', pattern: '/money/transactions', status: 200 },
  { capability: 'read', method: 'GET', pattern: '/money/transactions/:transactionId', status: 200 },
  {
    capability: 'move_money',
    method: 'POST',
    pattern: '/money/transactions/:transactionId/refund',
    fields: { amount: '150.00', reason: 'customer changed their mind', idempotency_key: IDEMPOTENCY_KEY },
    status: 303,
  },
  { capability: 'read', method: 'GET', pattern: '/money/virtual-accounts', status: 200 },
  { capability: 'read', method: 'GET', pattern: '/money/virtual-accounts/:virtualAccountId', status: 200 },

  { capability: 'read', method: 'GET', pattern: '/team', status: 200 },
  {
    capability: 'manage_members',
    method: 'POST',
    pattern: '/team/invitations',
    fields: { email: 'new@example.com', role: 'viewer' },
    // The sandbox shows the invitation link (no mail there); production mails it and redirects.
    status: { sandbox: 201, production: 303 },
  },
  {
    capability: 'manage_members',
    method: 'POST',
    pattern: '/team/:memberId/role',
    fields: { role: 'viewer' },
    status: 303,
  },
  { capability: 'manage_members', method: 'POST', pattern: '/team/:memberId/remove', status: 303 },
  { capability: 'read_audit', method: 'GET', pattern: '/audit', status: 200 },
  // Ends the member's every session: each case signs its browser in again when it finds it signed out.
  { capability: 'read', method: 'POST', pattern: '/sign-out-everywhere', status: 303 },
];

/** The routes anyone reaches without a member's session: sign-in and what leads to it, probes. */
const PUBLIC = [
  'GET /healthz',
  'GET /readyz',
  'GET /sign-in',
  'POST /sign-in',
  'GET /sign-in/totp',
  'POST /sign-in/totp',
  'POST /sign-out',
  'GET /invitation/:token',
  'POST /invitation/:token',
  'GET /totp',
  'POST /totp',
  'GET /password-reset',
  'POST /password-reset',
  'GET /password-reset/:token',
  'POST /password-reset/:token',
];

/** decision 0028, written out: who may do what in each environment (roles.ts must agree). */
const ALLOWED: Record<Environment, Record<Capability, RoleName[]>> = {
  sandbox: {
    read: ['owner', 'admin', 'developer', 'viewer'],
    read_audit: ['owner', 'admin'],
    manage_keys: ['owner', 'admin', 'developer'],
    manage_members: ['owner', 'admin'],
    manage_webhooks: ['owner', 'admin', 'developer'],
    move_money: ['owner', 'admin', 'developer'],
    sandbox_tools: ['owner', 'admin', 'developer'],
  },
  production: {
    read: ['owner', 'admin', 'developer', 'viewer'],
    read_audit: ['owner', 'admin'],
    manage_keys: ['owner', 'admin'],
    manage_members: ['owner', 'admin'],
    manage_webhooks: ['owner', 'admin', 'developer'],
    move_money: ['owner', 'admin'],
    sandbox_tools: [],
  },
};

const ROLES: [RoleName, MemberRole][] = [
  ['owner', MemberRole.OWNER],
  ['admin', MemberRole.ADMIN],
  ['developer', MemberRole.DEVELOPER],
  ['viewer', MemberRole.VIEWER],
];

const pathOf = (route: GuardedRoute) => {
  const path = route.pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = PARAMS[name];
    if (!value) throw new Error(`PARAMS names no value for :${name}`);
    return value;
  });
  return route.query ? `${path}?${route.query}` : path;
};

interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  slash?: boolean;
  name?: string;
}

/**
 * "METHOD /path" of every route the app registers, read from express 5's router (app.router, the
 * `router` package's layers): routers are mounted at "/" (layer.slash), so a route's path is its own.
 */
function registeredRoutes(app: Express): string[] {
  const router = (app as unknown as { router?: { stack?: RouterLayer[] } }).router;
  if (!Array.isArray(router?.stack)) throw new Error('app.router.stack is not there: is this express 5?');
  const found: string[] = [];
  const walk = (stack: RouterLayer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const { path, methods } = layer.route;
        if (typeof path !== 'string') throw new Error(`a route with a path that is not a string: ${String(path)}`);
        for (const method of Object.keys(methods)) found.push(`${method.toUpperCase()} ${path}`);
      } else if (Array.isArray(layer.handle?.stack)) {
        if (!layer.slash)
          throw new Error(`a router (${layer.name ?? '?'}) mounted below "/": teach this walk its prefix`);
        walk(layer.handle.stack);
      }
    }
  };
  walk(router.stack);
  return found.sort();
}

const virtualAccount = () =>
  create(VirtualAccountSchema, {
    id: VIRTUAL_ACCOUNT_ID,
    customerId: CUSTOMER_ID,
    currency: 'GBP',
    status: VirtualAccountStatus.ACTIVE,
    accountName: 'Chidi Eze',
    accountNumber: '9912345678',
    bankName: 'Corridor Sandbox Bank',
    bankCode: '999',
    createdAt: CREATED,
  });

/** 150.00 GBP into a virtual account, never refunded: refundable. */
const collection = () =>
  create(TransactionSchema, {
    id: COLLECTION_ID,
    businessId: BUSINESS_ID,
    type: TransactionType.COLLECTION,
    status: TransactionStatus.SUCCESSFUL,
    currency: 'GBP',
    amount: 15_000n,
    fee: 150n,
    net: 14_850n,
    description: 'Bank transfer from Chidi Eze',
    createdAt: CREATED,
    updatedAt: CREATED,
    collectionDetails: create(CollectionDetailsSchema, {
      method: CollectionMethod.BANK_TRANSFER,
      customerId: CUSTOMER_ID,
      virtualAccountId: VIRTUAL_ACCOUNT_ID,
      senderName: 'Chidi Eze',
      railReference: 'SBX-IN-0001',
    }),
  });

const webhook = () =>
  create(WebhookConfigSchema, {
    id: '5d0e6f1a-0000-4000-8000-00000000e001',
    businessId: BUSINESS_ID,
    collectionUrl: 'https://platform.example/hooks/collections',
    payoutUrl: 'https://platform.example/hooks/payouts',
    signingSecretLast4: 'kYz1',
    createdAt: CREATED,
    updatedAt: CREATED,
  });

const attempt = () =>
  create(WebhookAttemptSchema, {
    number: 2,
    trigger: AttemptTrigger.REPLAY,
    startedAt: CREATED,
    durationMs: 120,
    outcome: AttemptOutcome.SUCCEEDED,
    statusCode: 200,
  });

const delivery = () =>
  create(WebhookDeliverySchema, {
    id: DELIVERY_ID,
    eventId: '8b3d0f52-0000-4000-8000-00000000a001',
    eventType: WebhookEvent.PAYOUT_FAILED,
    destination: WebhookDestination.PAYOUT_URL,
    url: 'https://platform.example/hooks/payouts',
    status: DeliveryStatus.SUCCEEDED,
    attemptCount: 1,
    body: '{"event":"payout.failed","data":{"reason":"insufficient funds"}}',
    createdAt: CREATED,
    updatedAt: CREATED,
    attempts: [attempt()],
  });

/** The services' answers to what the routes above ask, so an allowed role's page neither 403s nor 500s. */
function answerAsServices(dashboard: Dashboard) {
  const { customers, kycSessions, payments, notification } = dashboard;
  customers.answers.set('listCustomers', () => ({ customers: [businessCustomer()], cursorPage: { limit: 15 } }));
  customers.answers.set('getCustomer', () => ({ customer: businessCustomer() }));
  customers.answers.set('sandboxReviewCustomer', () => ({ customer: businessCustomer() }));
  kycSessions.answers.set('listKycSessions', () => ({ sessions: [kycSession()], page: { limit: 15 } }));
  kycSessions.answers.set('getKycSession', () => ({ session: kycSession() }));
  kycSessions.answers.set('sandboxRecordKycResult', () => ({
    session: kycSession({ status: KycSessionStatus.COMPLETED, result: KycResult.APPROVED }),
  }));

  payments.answers.set('listCurrencies', () => ({
    currencies: [
      create(CurrencySchema, { code: 'GBP', name: 'Pound Sterling', exponent: 2 }),
      create(CurrencySchema, { code: 'NGN', name: 'Nigerian Naira', exponent: 2 }),
    ],
  }));
  payments.answers.set('listWallets', () => ({
    wallets: [create(WalletSchema, { currency: 'GBP', availableBalance: 14_850n, ledgerBalance: 14_850n })],
  }));
  payments.answers.set('listTransactions', () => ({ transactions: [collection()], page: { limit: 50 } }));
  payments.answers.set('getTransaction', () => ({ transaction: collection() }));
  payments.answers.set('createRefund', () => ({
    refund: create(RefundSchema, {
      id: REFUND_ID,
      transactionId: COLLECTION_ID,
      status: RefundStatus.PROCESSING,
      amount: 15_000n,
      currency: 'GBP',
      createdAt: CREATED,
      updatedAt: CREATED,
    }),
    existing: false,
  }));
  payments.answers.set('listVirtualAccounts', () => ({ virtualAccounts: [virtualAccount()], page: { limit: 50 } }));
  payments.answers.set('getVirtualAccount', () => ({ virtualAccount: virtualAccount() }));
  payments.answers.set('sandboxIncomingTransfer', () => ({ transaction: collection() }));
  payments.answers.set('sandboxSettleCollection', () => ({ transaction: collection() }));

  notification.answers.set('getWebhook', () => ({ webhook: webhook() }));
  notification.answers.set('rotateWebhookSecret', () => ({
    webhook: { ...webhook(), signingSecret: `whsec_${'r'.repeat(43)}` },
  }));
  notification.answers.set('endWebhookSecretOverlap', () => ({ webhook: webhook() }));
  notification.answers.set('enableWebhookUrl', () => ({ webhook: webhook(), queued: 0 }));
  notification.answers.set('updateWebhook', (request) => ({
    webhook: { ...webhook(), payoutUrl: String(request.payoutUrl ?? webhook().payoutUrl) },
  }));
  notification.answers.set('listDeliveries', () => ({ deliveries: [delivery()], cursorPage: { limit: 15 } }));
  notification.answers.set('getDelivery', () => ({ delivery: delivery() }));
  notification.answers.set('replayDelivery', () => ({ attempt: attempt() }));
  notification.answers.set('replayFailedDeliveries', () => ({ queued: 2 }));
  notification.answers.set('triggerMockWebhook', () => ({
    delivery: { ...delivery(), mock: true },
    attempt: attempt(),
  }));
}

describe.each<Environment>(['sandbox', 'production'])('roles on every route, %s', (environment) => {
  let dashboard: Dashboard;
  const browsers = new Map<RoleName, TestBrowser>();
  const emailOf = (name: RoleName) => `${name}${ROLES.findIndex(([n]) => n === name) + 1}@example.com`;
  /** Calls every fake service received so far, to see that a refusal asked none of them. */
  const callCount = () =>
    [dashboard.identity, dashboard.customers, dashboard.kycSessions, dashboard.payments, dashboard.notification]
      .map((fake) => fake.calls.length)
      .join(',');

  beforeAll(async () => {
    dashboard = await startDashboard({ environment });
    answerAsServices(dashboard);
    dashboard.identity.add(fakeMember(9, MemberRole.VIEWER, { email: 'target@example.com' }));
    for (const [name, role] of ROLES) {
      // TOTP on, so production owners and admins are not sent to enrol first.
      dashboard.identity.add(fakeMember(ROLES.findIndex(([n]) => n === name) + 1, role, { totpEnabled: true }));
      const browser = dashboard.browser();
      await browser.signIn(emailOf(name));
      browsers.set(name, browser);
    }
  });
  afterAll(() => dashboard.close());

  it('lists every route the app registers, as guarded or as public', () => {
    const registered = registeredRoutes(dashboardApp(dashboard.deps, { trustProxy: false, readiness: [] }));
    const listed = [...ROUTES.map((route) => `${route.method} ${route.pattern}`), ...PUBLIC].sort();
    expect(registered).toEqual(listed);
  });

  const cases = ROUTES.flatMap((route) => ROLES.map(([role]) => [role, route.method, route.pattern, route] as const));

  it.each(cases)('%s: %s %s', async (role, method, _pattern, route) => {
    const browser = browsers.get(role);
    if (!browser) throw new Error('not signed in');
    // Signed in again after a sign-out everywhere; a page of the session for a POST's CSRF token.
    if (browser.last?.location?.startsWith('/sign-in')) await browser.signIn(emailOf(role));
    if (method === 'POST' && browser.csrfToken() === '') await browser.get('/');
    const before = callCount();
    const path = pathOf(route);
    const page = method === 'GET' ? await browser.get(path) : await browser.post(path, route.fields ?? {});
    if (absentIn(route, environment)) {
      expect(page.status).toBe(404);
      expect(callCount()).toBe(before);
    } else if (ALLOWED[environment][route.capability].includes(role)) {
      expect(page.status).toBe(typeof route.status === 'number' ? route.status : route.status[environment]);
    } else {
      expect(page.status).toBe(403);
      expect(page.html).toMatch(/This needs the (owner|admin)[a-z ,]* role/);
      // Refused before any service is asked anything.
      expect(callCount()).toBe(before);
    }
  });

  it.each(ROUTES.map((route) => [route.method, route.pattern, route] as const))(
    'signed out: %s %s sends to sign-in',
    async (method, _pattern, route) => {
      const browser = dashboard.browser();
      await browser.get('/sign-in'); // the anonymous form token a POST carries
      const path = pathOf(route);
      const page = method === 'GET' ? await browser.get(path) : await browser.post(path, route.fields ?? {});
      if (absentIn(route, environment)) {
        expect(page.status).toBe(404);
      } else {
        expect(page.status).toBe(303);
        expect(page.location).toBe('/sign-in');
      }
    },
  );

  it('renders only the buttons a role may use', async () => {
    const viewer = browsers.get('viewer');
    const owner = browsers.get('owner');
    if (!viewer || !owner) throw new Error('not signed in');
    for (const browser of [viewer, owner]) {
      if ((await browser.get('/')).status === 303)
        await browser.signIn(emailOf(browser === viewer ? 'viewer' : 'owner'));
    }
    const viewerKeys = await viewer.get('/api-keys');
    expect(viewerKeys.html).not.toContain('/api-keys/new');
    expect(viewerKeys.html).not.toContain('/rotate');
    const viewerTeam = await viewer.get('/team');
    expect(viewerTeam.html).not.toContain('/team/invitations');
    expect(viewerTeam.html).not.toContain('/remove');
    const ownerKeys = await owner.get('/api-keys');
    expect(ownerKeys.html).toContain('/api-keys/new');
    expect(ownerKeys.html).toContain(`/api-keys/${CLIENT_ID}/rotate`);
  });
});
