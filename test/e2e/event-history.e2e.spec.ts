import { createTestCertificates, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import { listMissedEvents, type HistoryEvent } from '@corridor/webhook-signature';
import { jsonOf } from '../support/customers.js';
import { Platform } from '../support/platform.js';
import { ReceivingBusiness, receiverEnv } from '../support/receiving-business.js';

/** Seed 6.4's schedule scaled to milliseconds: nothing here is retried (every answer is 2xx). */
const SCHEDULE = [0, 400, 800, 1200, 1600];
/** Events each business makes, and deliveries the receiver drops of them. */
const EVENTS = 10;
const DROPPED = 4;

const sequenceOf = (request: ReceivedWebhook) => Number(request.headers['x-corridor-sequence']);

/** `count` distinct indices of [0, n), at random. */
function randomIndices(n: number, count: number): Set<number> {
  const indices = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [indices[i], indices[j]] = [indices[j] ?? 0, indices[i] ?? 0];
  }
  return new Set(indices.slice(0, count));
}

describe('the event history and gap detection (issue 34 parts 1 and 2; decisions 0066, 0067)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  const businesses: ReceivingBusiness[] = [];

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({ notificationEnv: receiverEnv(certificates, SCHEDULE) });
    await platform.start();
  });
  afterAll(async () => {
    await Promise.all(businesses.map((owner) => owner.stop()));
    await platform?.stop();
  });

  const history = (owner: ReceivingBusiness, query = '') =>
    platform
      .api(`/api/external/event${query}`, owner.token)
      .then((response) =>
        jsonOf<{ data: HistoryEvent[]; meta: { next_cursor: string | null } }>(response, 200, 'list events'),
      );

  it('a receiver that dropped N random deliveries (answered 2xx, kept nothing) gets exactly those N from the gap helper', async () => {
    const owner = await ReceivingBusiness.create(platform, certificates);
    businesses.push(owner);
    const dropped = randomIndices(EVENTS, DROPPED);
    // One at a time, so the receiver's request index is the event's place in the business's order.
    for (let i = 0; i < EVENTS; i++) {
      const { customerId } = await owner.submitNew();
      await owner.waitForCustomer(customerId);
    }
    const requests = owner.receiver.requests;
    expect(requests).toHaveLength(EVENTS);
    for (const request of requests) expect(request.verified).toBe(true);
    // Every delivery carries its number; the business's numbers are 1..EVENTS without a gap.
    expect(requests.map(sequenceOf).sort((a, b) => a - b)).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
    const kept = requests.filter((_, index) => !dropped.has(index));
    const lost = requests.filter((_, index) => dropped.has(index));

    const missed = await listMissedEvents({
      lastSequence: 0,
      seen: kept.map(sequenceOf),
      api: { baseUrl: platform.publicUrl, token: owner.token },
    });
    expect(missed.map((event) => event.sequence)).toEqual(lost.map(sequenceOf).sort((a, b) => a - b));
    // The history holds the exact body that was delivered.
    const bySequence = new Map(lost.map((request) => [sequenceOf(request), request]));
    for (const event of missed) {
      expect(event.payload).toEqual(JSON.parse(bySequence.get(event.sequence)?.rawBody ?? 'null'));
      expect(Object.keys(event.payload)).toEqual(['event', 'data']);
    }

    // The deliveries' event ids are the history's ids, and GET /event/{id} reads one of them.
    const [first] = missed;
    if (!first) throw new Error('nothing missed');
    const read = await jsonOf<{ data: HistoryEvent }>(
      await platform.api(`/api/external/event/${first.id}`, owner.token),
      200,
      'get event',
    );
    expect(read.data).toEqual(first);
  });

  it('records the events of a business with no URL registered, and never shows one business another’s', async () => {
    const [unregistered, other] = await Promise.all([
      ReceivingBusiness.create(platform, certificates, { register: false }),
      ReceivingBusiness.create(platform, certificates),
    ]);
    businesses.push(unregistered, other);
    const { customerId } = await unregistered.submitNew();
    const page = await (async () => {
      for (let i = 0; i < 100; i++) {
        const listed = await history(unregistered, '?type=customer.status_changed');
        if (listed.data.length > 0) return listed;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('the event never reached the history');
    })();
    expect(page.data).toHaveLength(1);
    const [event] = page.data;
    expect(event).toMatchObject({ sequence: 1, event: 'customer.status_changed' });
    expect((event?.payload.data as { customer_id: string }).customer_id).toBe(customerId);
    expect(unregistered.receiver.requests).toHaveLength(0);

    const foreign = await platform.api(`/api/external/event/${event?.id ?? ''}`, other.token);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'EVENT_NOT_FOUND' });
    expect((await history(other)).data.map((listed) => listed.id)).not.toContain(event?.id);
  });
});
