import { createTestCertificates, eventually, type TestCertificates } from '@corridor/testing';
import { CollectionsApi } from '../support/collections.js';
import type { CustomerJson } from '../support/customers.js';
import { Platform } from '../support/platform.js';
import {
  RECEIVING_SCOPES,
  ReceivingBusiness,
  receiverEnv,
  type StatusChangedBody,
} from '../support/receiving-business.js';

/**
 * Issue 36 part 1 (decision 0033): once customer-kyb has answered a create, a submit or a review
 * verdict, payments acts on it. N create → submit → review VERIFIED → POST /virtual-account sequences
 * back to back, and as many accounts opened inside the `customer.status_changed` → VERIFIED webhook
 * handler, each with 0 stale refusals: never "not a customer" (CUSTOMER_NOT_FOUND), never a status
 * older than the verdict (CUSTOMER_NOT_VERIFIED). 200 by default (npm test); the issue's full count
 * is READ_YOUR_WRITES_SEQUENCES=1000.
 */
const SEQUENCES = Number(process.env.READ_YOUR_WRITES_SEQUENCES ?? 200);
/** What a refusal would be if payments acted on a projection older than what customer-kyb answered. */
const STALE_CODES = ['CUSTOMER_NOT_FOUND', 'CUSTOMER_NOT_VERIFIED'];
/** jest's 300 s fence holds 200 sequences on a loaded machine; the full count gets room in proportion. */
const TIMEOUT_MS = Math.max(300_000, SEQUENCES * 1_500);

interface Answer {
  customerId: string;
  status: number;
  code: string | undefined;
}

/** The refusals among `answers`: stale ones, and any other answer than 201. */
function tally(answers: readonly Answer[]) {
  const refused = answers.filter((answer) => answer.status !== 201);
  return {
    answered: answers.length,
    stale: refused.filter((answer) => answer.status === 422 && STALE_CODES.includes(answer.code ?? '')),
    other: refused.filter((answer) => !(answer.status === 422 && STALE_CODES.includes(answer.code ?? ''))),
  };
}

/** One line of figures: sequences, stale refusals, and the other refusals by status and code. */
function report(variant: string, figures: ReturnType<typeof tally>): void {
  const others = figures.other.map((answer) => `${answer.status} ${answer.code ?? ''}`.trim());
  process.stdout.write(
    `read-your-writes, ${variant}: ${figures.answered} sequences, ${figures.stale.length} stale refusals, ` +
      `${figures.other.length} other refusals${others.length > 0 ? ` (${others.join(', ')})` : ''}\n`,
  );
}

describe('read-your-writes: customer-kyb → payments (issue 36)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let api: CollectionsApi;
  let business: ReceivingBusiness;
  /** RECEIVING_SCOPES and virtual-account:create: customers and their accounts with one token. */
  let token: string;

  beforeAll(async () => {
    certificates = await createTestCertificates();
    // Webhooks go out at once (no retry delay before the first attempt): the race is the point.
    platform = new Platform({ notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]) });
    api = new CollectionsApi(platform);
    await platform.start();
    business = await ReceivingBusiness.create(platform, certificates);
    token = await business.tokenWith([...RECEIVING_SCOPES, 'virtual-account:create']);
  });
  afterAll(async () => {
    await business?.stop();
    await platform?.stop();
  });

  /** A MINIMAL business customer of the business, submitted and reviewed VERIFIED by the back office. */
  const verifiedCustomer = async (): Promise<CustomerJson> => {
    const ready = await platform.customers.minimalReadyToSubmit({
      token,
      businessId: business.businessId,
      clientId: business.clientId,
    });
    return api.verify(await api.submit(token, ready.id));
  };

  /** POST /virtual-account (NGN, what MINIMAL KYB opens) the moment it is called: never retried. */
  const open = async (customerId: string): Promise<Answer> => {
    const response = await api.virtualAccountResponse(token, customerId, 'NGN');
    const body = (await response.json()) as { code?: string };
    return { customerId, status: response.status, code: response.status === 201 ? undefined : body.code };
  };

  it(
    `opens an account right after each of ${SEQUENCES} reviews answered VERIFIED`,
    async () => {
      const answers: Answer[] = [];
      for (let i = 0; i < SEQUENCES; i++) answers.push(await open((await verifiedCustomer()).id));
      const figures = tally(answers);
      report('back to back', figures);
      expect({ stale: figures.stale, other: figures.other }).toEqual({ stale: [], other: [] });
    },
    TIMEOUT_MS,
  );

  it(
    `opens an account inside each of ${SEQUENCES} customer.status_changed → VERIFIED webhooks`,
    async () => {
      const opening = new Map<string, Promise<Answer>>();
      // The reply plan runs as each request arrives: the handler opens the account before it answers 200.
      business.receiver.respondWith((request) => {
        const hook = request.json as Partial<StatusChangedBody> | undefined;
        const customerId = hook?.data?.customer_id;
        if (hook?.event === 'customer.status_changed' && hook.data?.new_status === 'VERIFIED' && customerId) {
          // A redelivery of the same event opens nothing more.
          if (!opening.has(customerId)) opening.set(customerId, open(customerId));
        }
        return { status: 200, body: '{"received":true}', headers: { 'content-type': 'application/json' } };
      });
      const verified: string[] = [];
      for (let i = 0; i < SEQUENCES; i++) verified.push((await verifiedCustomer()).id);
      await eventually(() => {
        const missing = verified.filter((id) => !opening.has(id));
        if (missing.length > 0) throw new Error(`${missing.length} VERIFIED webhooks not received yet`);
      }, 60_000);
      const figures = tally(await Promise.all(verified.map((id) => opening.get(id) as Promise<Answer>)));
      report('webhook handler', figures);
      expect({ stale: figures.stale, other: figures.other }).toEqual({ stale: [], other: [] });
    },
    TIMEOUT_MS,
  );
});
