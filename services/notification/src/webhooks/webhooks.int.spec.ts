import { Status } from '@corridor/grpc';
import type { ResolvedAddress } from '@corridor/ssrf-guard';
import { integrationDatabase, query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { failure } from '../../test/webhooks/domain-failure.js';
import type { NotificationContext } from '../context.js';
import { notificationDatabase } from '../database.js';
import { SIGNING_SECRET_PATTERN, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { getWebhook } from './get-webhook.js';
import { registerWebhook } from './register-webhook.js';
import { updateWebhook } from './update-webhook.js';

/** DNS from a table, counting the questions; no network. */
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'payouts.example.com': ['93.184.215.15', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'kyc.example.com': ['93.184.215.16'],
  'internal.example.com': ['93.184.215.17', '10.0.0.7'],
};
const asked: string[] = [];
async function resolve(hostname: string): Promise<ResolvedAddress[]> {
  asked.push(hostname);
  const addresses = DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

const now = new Date('2026-11-21T10:00:00.000Z');
const later = new Date('2026-11-21T11:00:00.000Z');
let clock = now;
const context: NotificationContext = {
  environment: 'sandbox',
  now: () => clock,
  secrets: new WebhookSecrets('n'.repeat(64)),
  webhookUrls: { allowCidrs: [], resolve },
};

const URLS = {
  collection_url: 'https://hooks.example.com/corridor/collections',
  payout_url: 'https://payouts.example.com/corridor',
};

interface Urls {
  collection_url?: string;
  payout_url?: string;
  kyc_url?: string | null;
}

/** RegisterWebhook's typed request (decision 0026) for these URLs; kyc_url null is left out, as the gateway does. */
const registration = ({ collection_url, payout_url, kyc_url }: Urls) => ({
  collectionUrl: collection_url ?? '',
  payoutUrl: payout_url ?? '',
  ...(typeof kyc_url === 'string' ? { kycUrl: kyc_url } : {}),
});

/** UpdateWebhook's typed request: what is left out stays; kyc_url null removes it. */
const change = (webhookId: string, { collection_url, payout_url, kyc_url }: Urls) => ({
  webhookId,
  collectionUrl: collection_url,
  payoutUrl: payout_url,
  kycUrlChange:
    kyc_url === undefined
      ? { case: undefined }
      : kyc_url === null
        ? { case: 'removeKycUrl' as const, value: true }
        : { case: 'kycUrl' as const, value: kyc_url },
});

describe('notification: webhook configuration (real PostgreSQL, injected DNS)', () => {
  const database = integrationDatabase('notification', notificationDatabase);
  const { em } = database;

  beforeAll(async () => {});

  beforeEach(() => {
    clock = now;
    asked.length = 0;
  });

  it('registers: a whsec_ secret shown once, sealed at rest, last four in clear', async () => {
    const businessId = randomUUID();
    const webhook = await registerWebhook(em(), context, businessId, registration(URLS));
    expect(webhook).toMatchObject({
      businessId,
      collectionUrl: URLS.collection_url,
      payoutUrl: URLS.payout_url,
      kycUrl: '',
      signingSecretLast4: webhook.signingSecret.slice(-4),
    });
    expect(webhook.signingSecret).toMatch(SIGNING_SECRET_PATTERN);
    expect(webhook.createdAt?.seconds).toBe(BigInt(now.getTime() / 1000));

    const [row] = await query<{
      business_id: string;
      kyc_url: string | null;
      signing_secret_sealed: Buffer;
      signing_secret_last4: string;
    }>(
      database.url,
      'select business_id, kyc_url, signing_secret_sealed, signing_secret_last4 from webhook_endpoint where id = $1',
      [webhook.id],
    );
    expect(row).toMatchObject({
      business_id: businessId,
      kyc_url: null,
      signing_secret_last4: webhook.signingSecretLast4,
    });
    const sealed = row?.signing_secret_sealed ?? Buffer.alloc(0);
    expect(sealed.includes(Buffer.from(webhook.signingSecret))).toBe(false);
    expect(sealed.includes(Buffer.from(webhook.signingSecret.slice('whsec_'.length)))).toBe(false);
    expect(context.secrets.unseal(sealed, webhook.id)).toBe(webhook.signingSecret);
  });

  it('registers kyc_url when sent, and null as "not registered"', async () => {
    const withKyc = await registerWebhook(
      em(),
      context,
      randomUUID(),
      registration({ ...URLS, kyc_url: 'https://kyc.example.com/hooks' }),
    );
    expect(withKyc.kycUrl).toBe('https://kyc.example.com/hooks');
    const withNull = await registerWebhook(em(), context, randomUUID(), registration({ ...URLS, kyc_url: null }));
    expect(withNull.kycUrl).toBe('');
  });

  it('refuses a second registration of a business with 409 naming the one to PUT, and writes nothing', async () => {
    const businessId = randomUUID();
    const first = await registerWebhook(em(), context, businessId, registration(URLS));
    const error = await failure(registerWebhook(em(), context, businessId, registration(URLS)));
    expect(error).toMatchObject({
      status: Status.ALREADY_EXISTS,
      reason: 'WEBHOOK_ALREADY_REGISTERED',
      message: `this business already has webhook configuration ${first.id}; change it with PUT /api/external/webhook/${first.id}`,
    });
    const rows = await query(database.url, 'select id from webhook_endpoint where business_id = $1', [businessId]);
    expect(rows).toEqual([{ id: first.id }]);
  });

  it('concurrent registrations that all pass the check: one wins, the others are the same 409 (unique index)', async () => {
    // DNS answers only once every request has asked, so all of them are past the existence check.
    const racers = 3;
    let arrived = 0;
    let release: () => void = () => undefined;
    const barrier = new Promise<void>((resolveBarrier) => (release = resolveBarrier));
    const racing: NotificationContext = {
      ...context,
      webhookUrls: {
        allowCidrs: [],
        resolve: async (hostname) => {
          if (++arrived === racers) release();
          await barrier;
          return resolve(hostname);
        },
      },
    };
    const businessId = randomUUID();
    const body = { collection_url: URLS.collection_url, payout_url: URLS.collection_url };
    const results = await Promise.allSettled(
      Array.from({ length: racers }, () => registerWebhook(em(), racing, businessId, registration(body))),
    );
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(arrived).toBe(racers);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(racers - 1);
    for (const error of lost) {
      expect(error).toMatchObject({
        status: Status.ALREADY_EXISTS,
        reason: 'WEBHOOK_ALREADY_REGISTERED',
        message: expect.stringContaining(`webhook configuration ${won[0]?.id};`),
      });
    }
    const rows = await query(database.url, 'select id from webhook_endpoint where business_id = $1', [businessId]);
    expect(rows).toEqual([{ id: won[0]?.id }]);
  });

  it('update: omitted URLs are untouched, kyc_url null removes it, the secret stays and is shown', async () => {
    const businessId = randomUUID();
    const registered = await registerWebhook(
      em(),
      context,
      businessId,
      registration({ ...URLS, kyc_url: 'https://kyc.example.com/hooks' }),
    );
    clock = later;

    const changed = await updateWebhook(
      em(),
      context,
      businessId,
      change(registered.id, { payout_url: 'https://hooks.example.com/corridor/payouts' }),
    );
    expect(changed).toMatchObject({
      id: registered.id,
      collectionUrl: URLS.collection_url,
      payoutUrl: 'https://hooks.example.com/corridor/payouts',
      kycUrl: 'https://kyc.example.com/hooks',
      signingSecret: registered.signingSecret,
      signingSecretLast4: registered.signingSecretLast4,
    });
    expect(changed.createdAt?.seconds).toBe(BigInt(now.getTime() / 1000));
    expect(changed.updatedAt?.seconds).toBe(BigInt(later.getTime() / 1000));

    const cleared = await updateWebhook(em(), context, businessId, change(registered.id, { kyc_url: null }));
    expect(cleared).toMatchObject({ kycUrl: '', payoutUrl: 'https://hooks.example.com/corridor/payouts' });
    const rows = await query(
      database.url,
      'select collection_url, payout_url, kyc_url from webhook_endpoint where id = $1',
      [registered.id],
    );
    expect(rows).toEqual([
      { collection_url: URLS.collection_url, payout_url: 'https://hooks.example.com/corridor/payouts', kyc_url: null },
    ]);

    // PUT adds kyc_url to an existing registration (seed 2.4); an empty body changes nothing.
    const added = await updateWebhook(
      em(),
      context,
      businessId,
      change(registered.id.toUpperCase(), { kyc_url: 'https://kyc.example.com/v2' }),
    );
    expect(added.kycUrl).toBe('https://kyc.example.com/v2');
    const same = await updateWebhook(em(), context, businessId, change(registered.id, {}));
    expect(same).toMatchObject({ kycUrl: 'https://kyc.example.com/v2', signingSecret: registered.signingSecret });
  });

  // The body's shape (types, nulls, unknown fields, missing URLs) is the gateway's (decision 0026);
  // what reaches notification without a URL is an empty string, which is no URL.
  it('refuses a registration whose URLs are empty, each under its field', async () => {
    const error = await failure(registerWebhook(em(), context, randomUUID(), registration({})));
    expect(error).toMatchObject({
      status: Status.INVALID_ARGUMENT,
      message: expect.stringMatching(/^collection_url /),
    });
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(['collection_url', 'payout_url']);
    const rows = await query(database.url, 'select id from webhook_endpoint where collection_url = $1', ['']);
    expect(rows).toEqual([]);
  });

  it.each([
    ['http', { collection_url: 'http://hooks.example.com/corridor' }, 'collection_url', 'must use https, not http'],
    [
      'a private IP literal',
      { payout_url: 'https://10.0.0.7/hooks' },
      'payout_url',
      'must reach a public address: 10.0.0.7 is a private address (10.0.0.0/8)',
    ],
    [
      'a host name with a private address',
      { collection_url: 'https://internal.example.com/hooks' },
      'collection_url',
      'must reach only public addresses: internal.example.com resolves to 10.0.0.7, and 10.0.0.7 is a private address (10.0.0.0/8)',
    ],
    [
      'the cloud metadata address',
      { kyc_url: 'https://169.254.169.254/latest' },
      'kyc_url',
      'must reach a public address: 169.254.169.254 is a link-local address (169.254.0.0/16)',
    ],
    [
      'a name that does not resolve',
      { payout_url: 'https://nowhere.example.com/' },
      'payout_url',
      'host nowhere.example.com could not be resolved: ENOTFOUND',
    ],
    [
      'credentials in the URL',
      { collection_url: 'https://user:pw@hooks.example.com/' },
      'collection_url',
      'must not contain a user name or password',
    ],
  ])('refuses %s with the guard’s reason, as `<field> <problem>`', async (_name, override, field, problem) => {
    const error = await failure(registerWebhook(em(), context, randomUUID(), registration({ ...URLS, ...override })));
    expect(error).toMatchObject({
      status: Status.INVALID_ARGUMENT,
      message: `${field} ${problem}`,
      fieldErrors: { [field]: [problem] },
    });
  });

  it('reports every refused URL at once, and resolves each distinct URL once', async () => {
    const error = await failure(
      registerWebhook(
        em(),
        context,
        randomUUID(),
        registration({
          collection_url: 'https://internal.example.com/hooks',
          payout_url: 'https://internal.example.com/hooks',
          kyc_url: 'http://kyc.example.com/',
        }),
      ),
    );
    const privateProblem =
      'must reach only public addresses: internal.example.com resolves to 10.0.0.7, and 10.0.0.7 is a private address (10.0.0.0/8)';
    expect(error.fieldErrors).toEqual({
      collection_url: [privateProblem],
      payout_url: [privateProblem],
      kyc_url: ['must use https, not http'],
    });
    expect(asked).toEqual(['internal.example.com']);

    asked.length = 0;
    await registerWebhook(
      em(),
      context,
      randomUUID(),
      registration({ collection_url: 'https://hooks.example.com/x', payout_url: 'https://hooks.example.com/x' }),
    );
    expect(asked).toEqual(['hooks.example.com']);
  });

  it('WEBHOOK_ALLOW_CIDRS lets the tests’ 127.0.0.1 receivers through, https still required', async () => {
    const local = { ...context, webhookUrls: { allowCidrs: ['127.0.0.0/8', '::1'], resolve } };
    const webhook = await registerWebhook(
      em(),
      local,
      randomUUID(),
      registration({ collection_url: 'https://127.0.0.1:4010/collections', payout_url: 'https://[::1]:4010/payouts' }),
    );
    expect(webhook.collectionUrl).toBe('https://127.0.0.1:4010/collections');

    const refused = await failure(
      registerWebhook(
        em(),
        context,
        randomUUID(),
        registration({ ...URLS, collection_url: 'https://127.0.0.1:4010/collections' }),
      ),
    );
    expect(refused.message).toBe(
      'collection_url must reach a public address: 127.0.0.1 is a loopback address (127.0.0.0/8)',
    );
    const plain = await failure(
      registerWebhook(
        em(),
        local,
        randomUUID(),
        registration({ ...URLS, collection_url: 'http://127.0.0.1:4010/collections' }),
      ),
    );
    expect(plain.message).toBe('collection_url must use https, not http');
  });

  it('update refuses a URL the guard refuses, and keeps the stored one', async () => {
    const businessId = randomUUID();
    const registered = await registerWebhook(em(), context, businessId, registration(URLS));
    const error = await failure(
      updateWebhook(
        em(),
        context,
        businessId,
        change(registered.id, {
          collection_url: 'https://internal.example.com/hooks',
          kyc_url: 'https://169.254.169.254/latest',
        }),
      ),
    );
    expect(error.fieldErrors).toEqual({
      collection_url: [
        'must reach only public addresses: internal.example.com resolves to 10.0.0.7, and 10.0.0.7 is a private address (10.0.0.0/8)',
      ],
      kyc_url: ['must reach a public address: 169.254.169.254 is a link-local address (169.254.0.0/16)'],
    });
    expect((await getWebhook(em(), businessId)).collectionUrl).toBe(URLS.collection_url);
  });

  it('tenancy: another business’s id is not found, exactly like a missing or malformed one', async () => {
    const owner = randomUUID();
    const registered = await registerWebhook(em(), context, owner, registration(URLS));
    const intruder = randomUUID();
    await registerWebhook(em(), context, intruder, registration(URLS));

    for (const webhookId of [registered.id, randomUUID(), 'not-a-uuid']) {
      const error = await failure(
        updateWebhook(em(), context, intruder, change(webhookId, { payout_url: 'https://kyc.example.com/' })),
      );
      expect(error).toMatchObject({
        status: Status.NOT_FOUND,
        reason: 'WEBHOOK_NOT_FOUND',
        message: `webhook configuration ${webhookId} not found`,
      });
    }
    expect((await getWebhook(em(), owner)).payoutUrl).toBe(URLS.payout_url);
    expect((await getWebhook(em(), intruder)).id).not.toBe(registered.id);
  });

  it('get: the business’s registration without the secret, and NOT_FOUND before one exists', async () => {
    const businessId = randomUUID();
    const missing = await failure(getWebhook(em(), businessId));
    expect(missing).toMatchObject({ status: Status.NOT_FOUND, reason: 'WEBHOOK_NOT_FOUND' });

    const registered = await registerWebhook(em(), context, businessId, registration(URLS));
    const shown = await getWebhook(em(), businessId);
    expect(shown).toMatchObject({
      id: registered.id,
      businessId,
      collectionUrl: URLS.collection_url,
      signingSecret: '',
      signingSecretLast4: registered.signingSecret.slice(-4),
    });
  });
});
