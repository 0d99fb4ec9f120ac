import { create } from '@bufbuild/protobuf';
import { AuditChangesSchema } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { auditChangesJson } from '@corridor/customer-json';
import { AUDIT_ROWS, query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { listAuditEntries } from '../customers/list-customers.js';
import { businessBody, customerSpecKit, individualBody, nth } from '../../test/customers/customer-spec-kit.js';

// Decision 0062: the audit rows every release since 0.1.0 wrote stay in customer_audit. Written as
// their use cases wrote them, they read back typed, and the typed changes render to the row as
// PostgreSQL gives it back (jsonb's key order).

describe('customer-kyb: stored audit rows read back typed (real PostgreSQL)', () => {
  const kit = customerSpecKit('stored_audit_changes');

  beforeAll(() => kit.start());
  afterAll(() => kit.stop());

  it.each(AUDIT_ROWS.map((row) => [row.shape, row] as const))('%s', async (_shape, row) => {
    const actor = kit.platform();
    const customer = await kit.create(actor, row.customerType === 'business' ? businessBody() : individualBody());
    const id = randomUUID();
    await query(
      kit.databaseUrl(),
      `insert into customer_audit (id, customer_id, business_id, action, actor, request_id, changes, occurred_at)
       values ($1, $2, $3, $4, 'admin', null, $5, now() + interval '1 day')`,
      [id, customer.id, actor.businessId, row.action, JSON.stringify(row.written)],
    );

    const entry = nth((await listAuditEntries(kit.em(), kit.admin, customer.id)).filter((e) => e.id === id));
    expect(entry.whatChanged).toEqual(create(AuditChangesSchema, row.typed));
    // The row as PostgreSQL gives it back: the admin API's `changes` since 0.1.0.
    const stored = await query<{ changes: object }>(
      kit.databaseUrl(),
      'select changes from customer_audit where id = $1',
      [id],
    );
    expect(JSON.stringify(nth(stored).changes)).toBe(row.answered);
    expect(JSON.stringify(auditChangesJson(create(AuditChangesSchema, row.typed)))).toBe(row.answered);
  });
});
