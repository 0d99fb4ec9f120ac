import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import {
  CustomerType,
  KybScope,
  ReviewStatus,
  VerificationStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { updateCustomer } from './update-customer.js';
import { upgradeKybScope } from './upgrade-kyb-scope.js';
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

// POST /customer/{customer}/upgrade-kyb-scope as customer-kyb serves it (seed 4.2, 3.1, 6.1, 7, 8),
// against real PostgreSQL: every 400, 404 and 422 of seed 7 at the use case, the state moves, and
// the audit entry and customer.status_changed written with the upgrade.

describe('customer-kyb: upgrading a business customer from MINIMAL to FULL KYB (real PostgreSQL)', () => {
  const kit = customerSpecKit('upgrade_kyb_scope');
  let actor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform({ minimalAllowed: true });
  });
  afterAll(() => kit.stop());

  const upgrade = async (customerId: string, body: Record<string, unknown>, who: PlatformActor = actor) =>
    upgradeKybScope(kit.em(), kit.context(), who, { customerId, body: typedBody(CustomerInputSchema, body) });
  const minimal = (extra: Record<string, unknown> = {}) => kit.create(actor, businessBody(extra));
  const owners = (...percentages: number[]) => percentages.map((p) => kit.ownerBody({ ownership_percentage: p }));

  /** A MINIMAL business the back office verified. */
  async function verifiedMinimal(extra: Record<string, unknown> = {}) {
    const customer = await minimal(extra);
    await kit.addDocument(actor, customer.id);
    return kit.verify(await kit.submit(actor, customer.id));
  }

  /** A refusal that leaves the customer, its owners, audit and outbox as they were. */
  async function expectUnchanged(customerId: string, refuse: () => Promise<void>) {
    const before = await kit.footprint(customerId);
    await refuse();
    expect(await kit.footprint(customerId)).toEqual(before);
  }

  describe('success (seed 4.2)', () => {
    it('kyb_scope FULL, the business identity kept, owners added PENDING in order, audited; no event while the status stays', async () => {
      const customer = await minimal();
      const upgraded = await upgrade(customer.id, { owners: owners(60, 40) });
      expect(upgraded).toMatchObject({
        id: customer.id,
        type: CustomerType.BUSINESS,
        kybScope: KybScope.FULL,
        verificationStatus: VerificationStatus.PENDING,
      });
      expect(dataOf(upgraded)).toMatchObject({
        business_name: fieldOf(customer, 'business_name'),
        registration_number: fieldOf(customer, 'registration_number'),
        incorporation_country: 'NG',
        country: 'NG',
      });
      expect(
        upgraded.owners.map((owner) => [
          owner.status,
          fieldOf(owner, 'first_name'),
          fieldOf(owner, 'ownership_percentage'),
        ]),
      ).toEqual([
        [ReviewStatus.PENDING, 'Ada', 60],
        [ReviewStatus.PENDING, 'Ada', 40],
      ]);
      expect(await kit.current(actor, customer.id)).toEqual(upgraded);
      const entry = (await kit.auditOf(customer.id)).at(-1);
      expect(entry).toEqual({
        action: 'customer.upgraded',
        actor: actor.name,
        request_id: actor.requestId,
        changes: {
          kyb_scope: { from: 'MINIMAL', to: 'FULL' },
          fields: {},
          owners_added: upgraded.owners.map((o) => o.id),
        },
      });
      // seed 4.2: customer.status_changed fires only when the status changes.
      expect(await kit.statusChanges(customer.id)).toEqual([]);
    });

    it('seed 8: one owner holding 100, or five summing to 100, are accepted', async () => {
      expect((await upgrade((await minimal()).id, { owners: owners(100) })).owners).toHaveLength(1);
      const five = await upgrade((await minimal()).id, { owners: owners(20, 20, 20, 20, 20) });
      expect(five.owners.map((owner) => fieldOf(owner, 'ownership_percentage'))).toEqual([20, 20, 20, 20, 20]);
    });

    it('the optional fields of the table are saved, and the registration pair and country may be overridden together', async () => {
      const augmentations = {
        trading_name: 'Acme Trading',
        business_type: 'llc',
        incorporation_date: '2015-03-01',
        industry_type: 'Logistics',
        business_description: 'Moves goods across West Africa',
        website: 'https://acme.example',
        source_of_funds: 'business_revenue',
        estimated_annual_revenue: '1000000_4999999',
        expected_monthly_payments: 250,
        account_purpose: 'receive_payments_for_goods_and_services',
        operating_street: '10 Downing Street',
        operating_city: 'London',
        operating_state: 'Greater London',
        operating_country: 'GB',
        operating_zip_code: 'SW1A 2AA',
      };
      expect(dataOf(await upgrade((await minimal()).id, { owners: owners(100), ...augmentations }))).toMatchObject(
        augmentations,
      );
      const number = `RC${randomUUID().slice(0, 8).toUpperCase()}`;
      const moved = await upgrade((await minimal()).id, {
        owners: owners(100),
        registration_number: number,
        incorporation_country: 'GH',
        country: 'GH',
      });
      expect(dataOf(moved)).toMatchObject({ registration_number: number, incorporation_country: 'GH', country: 'GH' });
    });

    it('seed 3.2: the readiness checks do not run here (no document, no owner ID files); they run at the next submit', async () => {
      const customer = await minimal();
      const upgraded = await upgrade(customer.id, { owners: owners(100) });
      expect(upgraded).toMatchObject({ kybScope: KybScope.FULL, documents: [] });
      expect(nth(upgraded.owners).idFiles).toEqual([]);
      await expectInvalid(
        kit.submit(actor, customer.id),
        { 'owners.0.id_document_front': /is required/ },
        'READINESS_CHECK_FAILED',
      );
    });

    it('seed 2.1: a business stored with no scope is upgraded like any MINIMAL one', async () => {
      const customer = await kit.create(kit.platform(), businessBody());
      const who = { ...actor, businessId: customer.businessId };
      await query(kit.databaseUrl(), 'update customer set kyb_scope = null where id = $1', [customer.id]);
      expect(await upgrade(customer.id, { owners: owners(100) }, who)).toMatchObject({
        kybScope: KybScope.FULL,
        verificationStatus: VerificationStatus.PENDING,
      });
    });
  });

  describe('state (seed 3.1)', () => {
    it('VERIFIED → PENDING with customer.status_changed (kyb_scope FULL); editable again; the approved document is not re-reviewed', async () => {
      const verified = await verifiedMinimal({ trading_name: 'Old name' });
      expect(verified.verificationStatus).toBe(VerificationStatus.VERIFIED);
      const upgraded = await upgrade(verified.id, { owners: owners(100), trading_name: 'New name' });
      expect(upgraded).toMatchObject({ kybScope: KybScope.FULL, verificationStatus: VerificationStatus.PENDING });
      expect(upgraded.documents.map((document) => document.status)).toEqual([ReviewStatus.APPROVED]);
      expect((await kit.statusChanges(verified.id)).at(-1)).toEqual(['VERIFIED', 'PENDING', 'upgrade']);
      const [, , , upgradeEvent] = await kit.outboxEvents(verified.id);
      expect(upgradeEvent?.event.payload).toMatchObject({
        case: 'customerStatusChanged',
        value: { scope: KybScope.FULL },
      });
      expect((await kit.auditOf(verified.id)).at(-1)?.changes).toEqual({
        kyb_scope: { from: 'MINIMAL', to: 'FULL' },
        verification_status: { from: 'VERIFIED', to: 'PENDING' },
        owners_added: [nth(upgraded.owners).id],
        fields: { trading_name: { from: 'Old name', to: 'New name' } },
      });
      const edited = await updateCustomer(kit.em(), kit.context(), actor, {
        customerId: verified.id,
        body: typedBody(CustomerInputSchema, { trading_name: 'Editable again' }),
        kycDataOnly: false,
      });
      expect(fieldOf(edited, 'trading_name')).toBe('Editable again');
    });

    it('a REJECTED customer stays REJECTED (no event), its new owner PENDING', async () => {
      const customer = await minimal();
      await kit.addDocument(actor, customer.id);
      const submitted = await kit.submit(actor, customer.id);
      await kit.review(customer.id, {
        documents: [{ id: nth(submitted.documents).id, status: 'REJECTED', admin_comments: ['Blurred'] }],
        verdict: 'REJECTED',
      });
      const upgraded = await upgrade(customer.id, { owners: owners(100) });
      expect(upgraded).toMatchObject({ kybScope: KybScope.FULL, verificationStatus: VerificationStatus.REJECTED });
      expect(nth(upgraded.owners).status).toBe(ReviewStatus.PENDING);
      expect((await kit.statusChanges(customer.id)).at(-1)).toEqual(['PROCESSING', 'REJECTED', 'review']);
    });

    it('while PROCESSING it is 400 UPGRADE_WHILE_PROCESSING whatever the customer (even one already FULL), and changes nothing', async () => {
      const customer = await minimal();
      await kit.addDocument(actor, customer.id);
      await kit.submit(actor, customer.id);
      await expectUnchanged(customer.id, () =>
        expectRefused(
          upgrade(customer.id, { owners: owners(100) }),
          Status.FAILED_PRECONDITION,
          'UPGRADE_WHILE_PROCESSING',
          /is PROCESSING: it cannot be upgraded while under review/,
        ),
      );
      const full = await kit.underReview(actor);
      await expectRefused(
        upgrade(full.id, { owners: owners(100) }),
        Status.FAILED_PRECONDITION,
        'UPGRADE_WHILE_PROCESSING',
      );
    });

    it('FULL never returns to MINIMAL: a second upgrade is 422 ALREADY_FULL, and an update cannot set kyb_scope', async () => {
      const customer = await minimal();
      await upgrade(customer.id, { owners: owners(100) });
      await expectUnchanged(customer.id, () =>
        expectInvalid(upgrade(customer.id, { owners: owners(100) }), { kyb_scope: /is already FULL/ }, 'ALREADY_FULL'),
      );
      await expectInvalid(
        updateCustomer(kit.em(), kit.context(), actor, {
          customerId: customer.id,
          body: typedBody(CustomerInputSchema, { kyb_scope: 'MINIMAL' }),
          kycDataOnly: false,
        }),
        { kyb_scope: /FULL never returns to MINIMAL/ },
      );
      expect((await kit.current(actor, customer.id)).kybScope).toBe(KybScope.FULL);
    });
  });

  describe('404 (seed 7)', () => {
    it('an unknown or malformed id, and another business’s customer, are CUSTOMER_NOT_FOUND; nothing is upgraded', async () => {
      const customer = await minimal();
      const other = kit.platform({ minimalAllowed: true });
      await expectUnchanged(customer.id, async () => {
        for (const [id, who] of [
          [randomUUID(), actor],
          ['not-a-uuid', actor],
          [customer.id, other],
        ] as const) {
          await expectRefused(
            upgrade(id, { owners: owners(100) }, who),
            Status.NOT_FOUND,
            'CUSTOMER_NOT_FOUND',
            new RegExp(`customer ${id} not found`),
          );
        }
      });
    });
  });

  describe('422 cases of seed 7, each leaving the customer as it was', () => {
    it('the customer is not type=business (NOT_A_BUSINESS); the customer is already FULL (ALREADY_FULL)', async () => {
      const individual = await kit.create(actor, individualBody());
      await expectInvalid(
        upgrade(individual.id, { owners: owners(100) }),
        { customer: /is an individual: only business customers have a KYB scope/ },
        'NOT_A_BUSINESS',
      );
      const full = await kit.create(actor, businessBody({ kyb_scope: 'FULL' }));
      await expectUnchanged(full.id, () =>
        expectInvalid(upgrade(full.id, { owners: owners(100) }), { kyb_scope: /is already FULL/ }, 'ALREADY_FULL'),
      );
    });

    it('another business customer of the platform already has the registration pair (DUPLICATE_REGISTRATION)', async () => {
      const taken = await minimal();
      const customer = await minimal();
      await expectUnchanged(customer.id, () =>
        expectInvalid(
          upgrade(customer.id, { owners: owners(100), registration_number: fieldOf(taken, 'registration_number') }),
          {
            registration_number: new RegExp(
              `"${String(fieldOf(taken, 'registration_number'))}" in NG is already another of your business customers`,
            ),
            incorporation_country: /is already another of your business customers/,
          },
          'DUPLICATE_REGISTRATION',
        ),
      );
    });

    it.each<[string, () => Record<string, unknown>, Record<string, RegExp>]>([
      [
        'country differs from incorporation_country after the changes',
        () => ({ owners: owners(100), country: 'GH' }),
        { country: /must equal incorporation_country \(NG\)/ },
      ],
      [
        'incorporation_country alone',
        () => ({ owners: owners(100), incorporation_country: 'GH' }),
        { incorporation_country: /must equal country \(NG\)/ },
      ],
      [
        'owners missing',
        () => ({}),
        { owners: /is required: 1 to 5 owners whose ownership_percentage values sum to exactly 100/ },
      ],
      ['owners null', () => ({ owners: null }), { owners: /is required/ }],
      ['owners empty', () => ({ owners: [] }), { owners: /must list at least one owner/ }],
      [
        'seed 8: more than 5 owners',
        () => ({ owners: owners(20, 20, 20, 20, 10, 10) }),
        { owners: /must list at most 5 owners \(got 6\)/ },
      ],
      [
        'percentages summing to 90',
        () => ({ owners: owners(50, 40) }),
        { owners: /must sum to exactly 100 \(they sum to 90\)/ },
      ],
      [
        'percentages summing to 110',
        () => ({ owners: owners(60, 50) }),
        { owners: /must sum to exactly 100 \(they sum to 110\)/ },
      ],
      [
        'owner emails not unique (case-insensitive)',
        () => ({
          owners: [
            kit.ownerBody({ ownership_percentage: 50, email: 'ada@example.com' }),
            kit.ownerBody({ ownership_percentage: 50, email: 'ADA@Example.com' }),
          ],
        }),
        { 'owners.1.email': /must be unique within the customer \(case-insensitive\)/ },
      ],
      [
        'an owner under 18',
        () => ({ owners: [kit.ownerBody({ date_of_birth: kit.isoDay(1, -18) })] }),
        { 'owners.0.date_of_birth': /at least 18 years before today/ },
      ],
      [
        'an owner ID past its expiry date',
        () => ({ owners: [kit.ownerBody({ id_expiry_date: kit.isoDay(-1) })] }),
        { 'owners.0.id_expiry_date': /must be after today.*expired/ },
      ],
      [
        'invalid ISO codes of an owner',
        () => ({ owners: [kit.ownerBody({ nationality: 'XX', country: 'ng', id_document_country: 'EU' })] }),
        {
          'owners.0.nationality': /ISO 3166-1 alpha-2/,
          'owners.0.country': /upper case: NG/,
          'owners.0.id_document_country': /reserved/,
        },
      ],
      [
        'invalid override values, each named',
        () => ({
          owners: owners(100),
          registration_number: '',
          website: 'acme',
          incorporation_date: kit.isoDay(1),
          business_description: 'd'.repeat(2001),
          expected_monthly_payments: -1,
        }),
        {
          registration_number: /must not be blank/,
          website: /http or https URI/,
          incorporation_date: /must be in the past/,
          business_description: /at most 2000 characters/,
          expected_monthly_payments: /at least 0/,
        },
      ],
      [
        'operating_country missing beside another operating_* field',
        () => ({ owners: owners(100), operating_city: 'Lagos' }),
        {
          operating_country: /is required when any other operating_\* field is sent/,
        },
      ],
      [
        'fields outside the table; country cannot be nulled',
        () => ({ owners: owners(100), business_name: 'Renamed', kyb_scope: 'FULL', country: null }),
        {
          business_name: /change it with PUT \/customer\/\{id\}/,
          kyb_scope: /an upgrade always sets kyb_scope to FULL/,
          country: /is required and cannot be null/,
        },
      ],
      [
        'owner ID files are not part of the payload',
        () => ({ owners: [kit.ownerBody({ id_document_front: randomUUID() })] }),
        {
          'owners.0.id_document_front': /upload owner ID files per slot/,
        },
      ],
      [
        'issue 4: every problem of a body at once',
        () => ({
          owners: [
            kit.ownerBody({ ownership_percentage: 30, tin: '1' }),
            kit.ownerBody({ ownership_percentage: 30, street: 'short' }),
          ],
          website: 'nope',
        }),
        {
          owners: /sum to exactly 100 \(they sum to 60\)/,
          'owners.0.tin': /5 to 50 characters/,
          'owners.1.street': /9 to 255 characters/,
          website: /http or https URI/,
        },
      ],
      ['owners that are not a list', () => ({ owners: 'everyone' }), { owners: /array|list/ }],
    ])('%s', async (_rule, body, expected) => {
      const customer = await minimal();
      await expectUnchanged(customer.id, () => expectInvalid(upgrade(customer.id, body()), expected));
    });
  });
});
