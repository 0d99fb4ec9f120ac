import {
  businessBody,
  individualBody,
  jsonOf,
  ownerBody,
  type CustomerCaller,
  type CustomerEventLog,
  type CustomerJson,
  type StatusChange,
} from '../support/customers.js';
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
  let minimalCaller: CustomerCaller;
  let events: CustomerEventLog;

  beforeAll(async () => {
    await platform.start();
    [caller, minimalCaller, events] = await Promise.all([
      api.caller(),
      api.caller({ kybMinimalAllowed: true }),
      platform.customerEvents(),
    ]);
  });
  afterAll(async () => {
    await events?.stop();
    await platform.stop();
  });

  /** The status moves of the customer once `count` have arrived, as [old, new, trigger]. */
  const moves = async (customerId: string, count: number) =>
    (await events.waitFor(customerId, count)).map((change: StatusChange) => [
      change.oldStatus,
      change.newStatus,
      change.trigger,
    ]);

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

  it('seed 6.1: no per-owner or per-document events: creating, editing, files, documents and removals fire nothing', async () => {
    const created = await api.createCustomer(
      caller.token,
      businessBody({ owners: [ownerBody({ ownership_percentage: 60 }), ownerBody({ ownership_percentage: 40 })] }),
    );
    const [first, second] = created.owners;
    await api.updateCustomer(caller.token, created.id, {
      trading_name: 'Acme',
      owners: [{ id: first!.id, ownership_percentage: 100 }, ownerBody({ ownership_percentage: 0 })],
    });
    await api.removeOwner(caller.token, created.id, second!.id);
    await api.attachOwnerFile(caller.token, created.id, first!.id, 'id_document_front');
    const document = await api.registerDocument(caller.token, created.id, 'PROOF_OF_ADDRESS');
    await api.replaceDocument(caller.token, created.id, document.id);
    await api.registerDocument(caller.token, created.id);
    const withThird = await api.getCustomer(caller.token, created.id);
    await api.attachOwnerIdFiles(caller.token, created.id, withThird.owners[1]!);
    await api.submit(caller.token, created.id);

    expect(await moves(created.id, 1)).toEqual([['PENDING', 'PROCESSING', 'submit']]);
    // customer.created is the bus's (payments' projection, decision 0014), never a webhook.
    expect(events.allOf(created.id).map((received) => received.event.type)).toEqual([
      'customer.created',
      'customer.status_changed',
    ]);
  });

  it('seed 6.1: a submit that fails a readiness check fires nothing', async () => {
    const customer = await api.createCustomer(caller.token, businessBody({ owners: [ownerBody()] }));
    expect((await api.call(caller.token, 'POST', `/customer/${customer.id}/submit`)).status).toBe(422);
    await api.attachOwnerIdFiles(caller.token, customer.id, customer.owners[0]!);
    await api.registerDocument(caller.token, customer.id);
    await api.submit(caller.token, customer.id);
    expect(await moves(customer.id, 1)).toEqual([['PENDING', 'PROCESSING', 'submit']]);
  });

  it('seed 6.1: a REJECTED verdict fires PROCESSING → REJECTED; a review without a verdict fires nothing', async () => {
    const ready = await api.fullReadyToSubmit(caller, [
      ownerBody({ ownership_percentage: 50 }),
      ownerBody({ ownership_percentage: 50 }),
    ]);
    const submitted = await api.submit(caller.token, ready.id);
    await api.review(ready.id, { owners: [{ id: submitted.owners[0]!.id, status: 'APPROVED' }] });
    await api.review(ready.id, {
      owners: [{ id: submitted.owners[1]!.id, status: 'REJECTED', admin_comments: ['Photo unreadable'] }],
      verdict: 'REJECTED',
    });
    expect(await moves(ready.id, 2)).toEqual([
      ['PENDING', 'PROCESSING', 'submit'],
      ['PROCESSING', 'REJECTED', 'review'],
    ]);
  });

  it('seed 6.1: a VERIFIED verdict fires PROCESSING → VERIFIED', async () => {
    const ready = await api.fullReadyToSubmit(caller);
    await api.verify(await api.submit(caller.token, ready.id));
    expect(await moves(ready.id, 2)).toEqual([
      ['PENDING', 'PROCESSING', 'submit'],
      ['PROCESSING', 'VERIFIED', 'review'],
    ]);
  });

  it('seed 6.1, seed 3.1: the upgrade fires VERIFIED → PENDING, with kyb_scope FULL', async () => {
    const verified = await api.verifiedMinimal(minimalCaller);
    await api.upgrade(minimalCaller.token, verified.id, { owners: [ownerBody()] });
    expect(await moves(verified.id, 3)).toEqual([
      ['PENDING', 'PROCESSING', 'submit'],
      ['PROCESSING', 'VERIFIED', 'review'],
      ['VERIFIED', 'PENDING', 'upgrade'],
    ]);
    expect(events.of(verified.id).map((change) => change.kybScope)).toEqual(['MINIMAL', 'MINIMAL', 'FULL']);
  });

  it('seed 4.2, seed 6.1: an upgrade from PENDING fires nothing (the status does not change)', async () => {
    const customer = await api.createCustomer(minimalCaller.token, businessBody());
    const upgraded = await api.upgrade(minimalCaller.token, customer.id, { owners: [ownerBody()] });
    await api.attachOwnerIdFiles(minimalCaller.token, customer.id, upgraded.owners[0]!);
    await api.registerDocument(minimalCaller.token, customer.id);
    await api.submit(minimalCaller.token, customer.id);
    expect(await moves(customer.id, 1)).toEqual([['PENDING', 'PROCESSING', 'submit']]);
  });

  it('seed 4.2, seed 6.1: an upgrade from REJECTED fires nothing', async () => {
    const ready = await api.minimalReadyToSubmit(minimalCaller);
    const submitted = await api.submit(minimalCaller.token, ready.id);
    await api.review(ready.id, {
      documents: [{ id: submitted.documents[0]!.id, status: 'REJECTED', admin_comments: ['Unreadable'] }],
      verdict: 'REJECTED',
    });
    const upgraded = await api.upgrade(minimalCaller.token, ready.id, { owners: [ownerBody()] });
    expect(upgraded.verification_status).toBe('REJECTED');
    await api.attachOwnerIdFiles(minimalCaller.token, ready.id, upgraded.owners[0]!);
    await api.replaceDocument(minimalCaller.token, ready.id, submitted.documents[0]!.id);
    await api.submit(minimalCaller.token, ready.id);
    expect(await moves(ready.id, 3)).toEqual([
      ['PENDING', 'PROCESSING', 'submit'],
      ['PROCESSING', 'REJECTED', 'review'],
      ['REJECTED', 'PROCESSING', 'submit'],
    ]);
  });

  it('seed 6.1: an individual’s submit fires it too, with customer_type individual and no kyb_scope', async () => {
    const individual = await api.createCustomer(
      caller.token,
      individualBody({ date_of_birth: '1990-01-01', id_type: 'passport', id_number: 'A7654321' }),
    );
    const front = await api.uploadFile(caller.token, '/file/get-presigned-url', {
      customer_id: individual.id,
      file_category: 'identity_front',
      content_type: 'application/pdf',
    });
    await jsonOf<{ data: CustomerJson }>(
      await api.call(caller.token, 'POST', `/customer/${individual.id}/files`, { id_file: front }),
      200,
      'attach individual file',
    );
    await api.submit(caller.token, individual.id);
    const [change] = await events.waitFor(individual.id, 1);
    expect(change).toMatchObject({
      oldStatus: 'PENDING',
      newStatus: 'PROCESSING',
      customerType: 'individual',
      kybScope: '',
    });
  });
});
