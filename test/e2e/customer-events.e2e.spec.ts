import { type CustomerCaller, type CustomerEventLog } from '../support/customers.js';
import { Platform } from '../support/platform.js';

/**
 * seed 6.1: customer.status_changed is the single customer-level event, on Kafka
 * (<prefix>corridor.customer.v1, keyed by customer id). "Only then" is checked by ending each
 * scenario with a known status change: events of one customer share a partition and are relayed
 * in order, so once the last one is here, any event in between would have arrived before it.
 */
describe('customers: customer.status_changed on Kafka (seed 6.1)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;
  let events: CustomerEventLog;

  beforeAll(async () => {
    await platform.start();
    [caller, events] = await Promise.all([api.caller(), platform.customerEvents()]);
  });
  afterAll(async () => {
    await events?.stop();
    await platform.stop();
  });

  it('seed 6.1: submit fires customer.status_changed PENDING → PROCESSING, keyed by the customer, with the business in the envelope', async () => {
    const ready = await api.fullReadyToSubmit(caller);
    await api.submit(caller.token, ready.id);
    const [change] = await events.waitFor(ready.id, 1);
    expect(change).toEqual({
      customerId: ready.id,
      businessId: caller.businessId,
      oldStatus: 'PENDING',
      newStatus: 'PROCESSING',
      trigger: 'submit',
      customerType: 'business',
      kybScope: 'FULL',
      key: ready.id,
    });
    const received = events.allOf(ready.id).find((e) => e.event.type === 'customer.status_changed');
    expect(received).toMatchObject({ topic: platform.customerTopic, event: { type: 'customer.status_changed' } });
  });
});
