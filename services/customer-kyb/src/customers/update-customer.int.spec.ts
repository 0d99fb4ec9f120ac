import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import { ReviewStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { removeOwner, updateCustomer } from './update-customer.js';
import {
  businessBody,
  customerSpecKit,
  expectInvalid,
  expectRefused,
  fieldOf,
  individualBody,
  nth,
  type PlatformActor,
  dataOf,
} from '../../test/customers/customer-spec-kit.js';

// PUT /customer/{id}, POST /customer/{id}/kyc-data and DELETE /customer/{customer}/owner/{owner} as
// customer-kyb serves them (seed 2.1 rules 1-3, 2.2, 6.1), against real PostgreSQL. The lock rule of
// seed 3.3 across every write is lock-rule.int.spec.ts's.

describe('customer-kyb: updating a customer, its KYC data and its owners (real PostgreSQL)', () => {
  const kit = customerSpecKit('update_customer');
  let actor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  const update = async (customerId: string, body: Record<string, unknown>, who: PlatformActor = actor) =>
    updateCustomer(kit.em(), kit.context(), who, {
      customerId,
      body: typedBody(CustomerInputSchema, body),
      kycDataOnly: false,
    });
  const kycData = async (customerId: string, body: Record<string, unknown>) =>
    updateCustomer(kit.em(), kit.context(), actor, {
      customerId,
      body: typedBody(CustomerInputSchema, body),
      kycDataOnly: true,
    });
  const remove = (customerId: string, ownerId: string, who: PlatformActor = actor) =>
    removeOwner(kit.em(), kit.context(), who, { customerId, ownerId });

  describe('seed 2.1 rule 2: null writes null, omitted is unchanged', () => {
    it('on the customer: null clears, omitted stays, and the audit entry lists exactly what changed; no event fires', async () => {
      const customer = await kit.create(
        actor,
        businessBody({ trading_name: 'Acme', website: 'https://acme.example', industry_type: 'Retail' }),
      );
      kit.clock.advance(1_000);
      const updated = await update(customer.id, { trading_name: null, industry_type: 'Fintech' });
      expect(dataOf(updated)).toMatchObject({
        trading_name: null,
        industry_type: 'Fintech',
        website: 'https://acme.example',
        business_name: fieldOf(customer, 'business_name'),
      });
      expect(await kit.current(actor, customer.id)).toEqual(updated);
      expect((await kit.auditOf(customer.id)).slice(1)).toEqual([
        {
          action: 'customer.updated',
          actor: actor.name,
          request_id: actor.requestId,
          changes: {
            fields: { trading_name: { from: 'Acme', to: null }, industry_type: { from: 'Retail', to: 'Fintech' } },
          },
        },
      ]);
      // seed 6.1: customer.status_changed is the only customer event; an edit sends none.
      expect(await kit.eventCases(customer.id)).toEqual(['customerCreated']);
      // A change of nothing writes nothing, not even an audit entry.
      await update(customer.id, { industry_type: 'Fintech' });
      expect(await kit.auditOf(customer.id)).toHaveLength(2);
    });

    it('on owners: an entry with id changes that owner (null clears), owners not listed are untouched, an entry without id adds one', async () => {
      const customer = await kit.create(
        actor,
        businessBody({
          owners: [
            kit.ownerBody({ ownership_percentage: 60, title: 'CEO', phone: '+2348000000000' }),
            kit.ownerBody({ ownership_percentage: 40, first_name: 'Bola', title: 'CFO' }),
          ],
        }),
      );
      const [first, second] = customer.owners.map((owner) => owner.id);
      const updated = await update(customer.id, {
        owners: [
          { id: first, title: null, first_name: 'Adaeze' },
          kit.ownerBody({ ownership_percentage: 0, first_name: 'Chidi' }),
        ],
      });
      expect(updated.owners.map((owner) => [owner.id, owner.status, dataOf(owner)])).toEqual([
        [
          first,
          ReviewStatus.PENDING,
          expect.objectContaining({ first_name: 'Adaeze', title: null, phone: '+2348000000000' }),
        ],
        [second, ReviewStatus.PENDING, expect.objectContaining({ first_name: 'Bola', title: 'CFO' })],
        [expect.any(String), ReviewStatus.PENDING, expect.objectContaining({ first_name: 'Chidi' })],
      ]);
      expect((await kit.current(actor, customer.id)).owners).toEqual(updated.owners);
      expect((await kit.auditOf(customer.id)).at(-1)?.changes).toEqual({
        owners_changed: [first],
        owners_added: [updated.owners[2]?.id],
      });
    });

    it('a required field cannot be written null (422), on the customer or an owner; omitting it is fine', async () => {
      const customer = await kit.create(actor, businessBody({ owners: [kit.ownerBody()] }));
      await expectInvalid(update(customer.id, { business_name: null }), {
        business_name: /is required and cannot be null/,
      });
      await expectInvalid(update(customer.id, { owners: [{ id: customer.owners[0]?.id, last_name: null }] }), {
        'owners.0.last_name': /is required and cannot be null/,
      });
      const updated = await update(customer.id, { trading_name: 'Only this' });
      expect(fieldOf(updated, 'business_name')).toBe(fieldOf(customer, 'business_name'));
    });
  });

  describe('seed 4.4: POST /customer/{id}/kyc-data', () => {
    it('changes data fields with the same semantics, audited as customer.kyc_data_updated, and never owners (422)', async () => {
      const customer = await kit.create(actor, businessBody({ trading_name: 'Acme', industry_type: 'Retail' }));
      const updated = await kycData(customer.id, { trading_name: null, website: 'https://acme.example' });
      expect(dataOf(updated)).toMatchObject({
        trading_name: null,
        website: 'https://acme.example',
        industry_type: 'Retail',
      });
      expect((await kit.auditOf(customer.id)).at(-1)?.action).toBe('customer.kyc_data_updated');
      await expectInvalid(kycData(customer.id, { owners: [kit.ownerBody()] }), {
        owners: /cannot be sent to kyc-data/,
      });
    });
  });

  describe('the rules of create hold on the result of an update, and nothing is written when one fails', () => {
    it.each<[string, () => Record<string, unknown>, Record<string, unknown>, Record<string, RegExp>]>([
      [
        'seed 2.1 rule 1: a field of the other type',
        () => individualBody(),
        { first_name: 'Changed', operating_city: 'Lagos' },
        {
          operating_city: /applies only to business customers/,
        },
      ],
      [
        'seed 2.1 rule 1: a KYB field on an individual',
        () => individualBody(),
        { id_number: 'X1', business_name: 'Acme' },
        {
          business_name: /applies only to business customers/,
        },
      ],
      [
        'seed 2.1: type cannot change',
        () => businessBody(),
        { type: 'individual' },
        {
          type: /cannot be changed after the customer is created \(this customer is business\)/,
        },
      ],
      [
        'seed 2.1: country alone must still equal incorporation_country',
        () => businessBody(),
        { country: 'GH' },
        {
          country: /must equal incorporation_country \(NG\).*send country and incorporation_country together/,
        },
      ],
      [
        'seed 2.1: incorporation_country alone must still equal country',
        () => businessBody(),
        { incorporation_country: 'GH' },
        {
          incorporation_country: /must equal country \(NG\)/,
        },
      ],
      [
        'seed 2.1: operating_country is required on the result',
        () => businessBody(),
        { operating_state: 'Lagos' },
        {
          operating_country: /is required when any other operating_\* field is sent/,
        },
      ],
      [
        'seed 2.1: zip_code against the stored country',
        () => businessBody({ incorporation_country: 'US', country: 'US', zip_code: '94103' }),
        { zip_code: 'SW1A 1AA' },
        {
          zip_code: /not a valid postal code for US/,
        },
      ],
      [
        'seed 2.2: owner emails stay unique, case-insensitive',
        () => businessBody({ owners: [kit.ownerBody({ email: 'Same@Example.com' })] }),
        { owners: [kit.ownerBody({ email: 'SAME@EXAMPLE.COM', ownership_percentage: 0 })] },
        {
          'owners.0.email': /must be unique within the customer/,
        },
      ],
      [
        'seed 2.1 rule 2: an owners entry naming an owner the customer does not have',
        () => businessBody({ owners: [kit.ownerBody()] }),
        { owners: [{ id: randomUUID(), title: 'CEO' }] },
        {
          'owners.0.id': /is not an owner of this customer/,
        },
      ],
      [
        'seed 3.1: kyb_scope is not changed by an update',
        () => businessBody(),
        { kyb_scope: 'MINIMAL' },
        { kyb_scope: /upgrade-kyb-scope/ },
      ],
    ])('%s is 422', async (_rule, createBody, body, expected) => {
      const customer = await kit.create(actor, createBody());
      const before = await kit.footprint(customer.id);
      await expectInvalid(update(customer.id, body), expected);
      expect(await kit.footprint(customer.id)).toEqual(before);
    });

    it.each<[string, string[]]>([
      [
        'business_type',
        ['corporation', 'government_entity', 'llc', 'non_profit', 'other', 'partnership', 'sole_proprietorship'],
      ],
      ['source_of_funds', ['business_revenue', 'business_loans', 'investment_income', 'third_party_funds', 'other']],
      [
        'estimated_annual_revenue',
        [
          '0_99999',
          '100000_499999',
          '500000_999999',
          '1000000_4999999',
          '5000000_24999999',
          '25000000_99999999',
          '100000000_249999999',
          '250000000_plus',
        ],
      ],
      [
        'account_purpose',
        [
          'receive_payments_for_goods_and_services',
          'send_payments_for_goods_and_services',
          'send_receive_funds_related_parties',
          'other',
        ],
      ],
    ])(
      'seed 2.1 (%s): every listed value is written, exactly as written (another case is 422)',
      async (field, values) => {
        const customer = await kit.create(actor, businessBody());
        for (const value of values) expect(fieldOf(await update(customer.id, { [field]: value }), field)).toBe(value);
        await expectInvalid(update(customer.id, { [field]: nth(values, values.length - 1).toUpperCase() }), {
          [field]: /must be one of/,
        });
      },
    );

    it('seed 1: a MINIMAL business takes no owners on update either (422 pointing to the upgrade)', async () => {
      const listed = kit.platform({ minimalAllowed: true });
      const minimal = await kit.create(listed, businessBody());
      await expectInvalid(update(minimal.id, { owners: [kit.ownerBody()] }, listed), {
        owners: /do not apply to a MINIMAL KYB customer/,
      });
    });

    it('seed 2.1: changing jurisdiction with both sent together passes; enum values and an owner email of the customer’s own are accepted', async () => {
      const customer = await kit.create(actor, businessBody({ owners: [kit.ownerBody({ email: 'ada@example.com' })] }));
      const moved = await update(customer.id, { country: 'GH', incorporation_country: 'GH', business_type: 'llc' });
      expect(dataOf(moved)).toMatchObject({ country: 'GH', incorporation_country: 'GH', business_type: 'llc' });
      const same = await update(customer.id, {
        type: 'business',
        owners: [{ id: customer.owners[0]?.id, email: 'ADA@example.com' }],
      });
      expect(fieldOf(nth(same.owners), 'email')).toBe('ADA@example.com');
    });

    it('seed 2.1 rule 3: an update that would take another business customer’s pair is 422 DUPLICATE_REGISTRATION and changes nothing', async () => {
      const first = await kit.create(actor, businessBody());
      const second = await kit.create(actor, businessBody());
      const before = await kit.footprint(second.id);
      const duplicate = /is already another of your business customers/;
      await expectInvalid(
        update(second.id, { registration_number: fieldOf(first, 'registration_number') }),
        { registration_number: duplicate, incorporation_country: duplicate },
        'DUPLICATE_REGISTRATION',
      );
      expect(await kit.footprint(second.id)).toEqual(before);
    });
  });

  describe('tenancy and the order of answers', () => {
    it('another business’s customer is CUSTOMER_NOT_FOUND, like an unknown or malformed id, and is not changed', async () => {
      const customer = await kit.create(actor, businessBody({ owners: [kit.ownerBody()] }));
      const before = await kit.footprint(customer.id);
      const stranger = kit.platform();
      for (const id of [customer.id, randomUUID(), 'not-a-uuid']) {
        await expectRefused(update(id, { trading_name: 'Taken' }, stranger), Status.NOT_FOUND, 'CUSTOMER_NOT_FOUND');
      }
      await expectRefused(
        remove(customer.id, customer.owners[0]?.id ?? '', stranger),
        Status.NOT_FOUND,
        'CUSTOMER_NOT_FOUND',
      );
      expect(await kit.footprint(customer.id)).toEqual(before);
    });

    it('an owners entry naming another customer’s owner is refused like an unknown owner', async () => {
      const other = await kit.create(kit.platform(), businessBody({ owners: [kit.ownerBody()] }));
      const customer = await kit.create(actor, businessBody({ owners: [kit.ownerBody()] }));
      await expectInvalid(update(customer.id, { owners: [{ id: other.owners[0]?.id, title: 'CEO' }] }), {
        'owners.0.id': /is not an owner of this customer/,
      });
    });
  });

  describe('decision 0008: DELETE /customer/{customer}/owner/{owner}', () => {
    it('removes the owner and audits it with its fields; no event fires', async () => {
      const customer = await kit.create(
        actor,
        businessBody({
          owners: [kit.ownerBody({ ownership_percentage: 60 }), kit.ownerBody({ ownership_percentage: 40 })],
        }),
      );
      const [kept, removed] = customer.owners;
      const after = await remove(customer.id, removed?.id ?? '');
      expect(after.owners.map((owner) => owner.id)).toEqual([kept?.id]);
      expect((await kit.current(actor, customer.id)).owners.map((owner) => owner.id)).toEqual([kept?.id]);
      expect((await kit.auditOf(customer.id)).at(-1)).toMatchObject({
        action: 'owner.removed',
        changes: { owner_id: removed?.id, owner: expect.objectContaining({ ownership_percentage: 40 }) },
      });
      expect(await kit.eventCases(customer.id)).toEqual(['customerCreated']);
    });

    it('an unknown owner, or another customer’s, is OWNER_NOT_FOUND', async () => {
      const customer = await kit.create(actor, businessBody({ owners: [kit.ownerBody()] }));
      const other = await kit.create(kit.platform(), businessBody({ owners: [kit.ownerBody()] }));
      for (const ownerId of [randomUUID(), other.owners[0]?.id ?? '']) {
        await expectRefused(remove(customer.id, ownerId), Status.NOT_FOUND, 'OWNER_NOT_FOUND');
      }
    });
  });
});
