import { create, fromBinary, ScalarType, toBinary, type DescField } from '@bufbuild/protobuf';
import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  BusinessDataSchema,
  CustomerSchema,
  IndividualDataSchema,
  OwnerDataSchema,
  type Customer,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { customerDataJson, jsonOfData, ownerDataJson } from '@corridor/customer-json';
import fc from 'fast-check';
import { storedFields, type CustomerView } from '../../services/customer-kyb/dist/customers/aggregate.js';
import { toCustomerMessage } from '../../services/customer-kyb/dist/customers/customer-message.js';
import {
  applyCustomerUpdate,
  customerFieldsOf,
  OWNER_FIELDS,
  validateCustomerCreate,
  validateCustomerUpdate,
  type CurrentCustomer,
} from '../../services/customer-kyb/dist/customers/rules/index.js';
import {
  CUSTOMER_FIELDS as PUBLIC_CUSTOMER_FIELDS,
  OWNER_FIELDS as PUBLIC_OWNER_FIELDS,
} from '../../services/gateway/dist/public/customers/fields.js';
import { readInput } from '../../services/gateway/dist/public/customers/input.js';
import {
  createCustomerBody,
  kycDataBody,
  updateCustomerBody,
  upgradeBody,
} from '../../services/gateway/dist/public/customers/request-schemas.js';

/**
 * Customers are typed end to end (decision 0061): for every customer customer-kyb answers, the typed
 * data (IndividualData, BusinessData, OwnerData) rendered by @corridor/customer-json is exactly what
 * customer-kyb stored, every field of the type with null where it holds no value (seed 2.1 rule 2).
 * The corpus: the gateway's request examples and customer-kyb's fixtures, read by the gateway and
 * judged by customer-kyb's rules (create, then updates with nulls and omissions), and arbitrary
 * stored records.
 */

const TODAY = '2026-06-15';
const AT = new Date('2026-06-15T09:00:00.000Z');

/** The customer as the gateway receives it: over the wire. */
function answered(view: CustomerView): Customer {
  return fromBinary(CustomerSchema, toBinary(CustomerSchema, toCustomerMessage(view)));
}

/** Every field of `names`, the stored value or null: what the public answer holds (seed 2.1 rule 2). */
function publicData(names: readonly string[], stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, stored[name] ?? null]));
}

/** The typed data customer-kyb answers for a stored customer renders exactly the stored fields. */
function expectStoredData(view: CustomerView): void {
  const customer = answered(view);
  expect(customerDataJson(customer)).toStrictEqual(
    publicData(customerFieldsOf(view.customer.type), view.customer.fields),
  );
  expect(customer.owners.map(ownerDataJson)).toStrictEqual(
    view.owners.map((owner) => publicData(OWNER_FIELDS, owner.fields)),
  );
}

type Stored = Record<string, string | number | boolean>;

function viewOf(type: 'individual' | 'business', fields: Stored, owners: readonly Stored[]): CustomerView {
  return {
    customer: {
      id: '6c1d7a9e-0000-4000-8000-00000000c001',
      businessId: '4b8f3c2e-0000-4000-8000-00000000b001',
      type,
      kybScope: type === 'business' ? 'FULL' : null,
      verificationStatus: 'PENDING',
      fields,
      idFileId: null,
      idFileBackId: null,
      createdAt: AT,
      updatedAt: AT,
      submittedAt: null,
    },
    owners: owners.map((owner, index) => ({
      id: `7e2f8b0a-0000-4000-8000-00000000a00${index}`,
      status: 'PENDING',
      adminComments: [],
      fields: owner,
      idDocumentFrontId: null,
      idDocumentBackId: null,
      createdAt: AT,
      updatedAt: AT,
    })),
    documents: [],
    files: new Map(),
  };
}

/** A create through customer-kyb's rules, stored as customer-kyb stores it. */
function created(body: Record<string, unknown>): { type: 'individual' | 'business'; fields: Stored; owners: Stored[] } {
  const result = validateCustomerCreate(readInput(CustomerInputSchema, body), {
    today: TODAY,
    kybMinimalAllowed: true,
  });
  if (!result.ok) throw new Error(`fixture refused: ${JSON.stringify(result.errors)}`);
  const input = result.value;
  return {
    type: input.type,
    fields: storedFields(input, customerFieldsOf(input.type)),
    owners: (input.type === 'business' ? input.owners : []).map((owner) => storedFields(owner, OWNER_FIELDS)),
  };
}

/** An update's fields (seed 2.1 rule 2: null clears, omitted is untouched) applied to a stored customer. */
function updated(customer: ReturnType<typeof created>, body: Record<string, unknown>): Stored {
  const current = { ...customer.fields, type: customer.type, kyb_scope: 'FULL' } as CurrentCustomer;
  const update = validateCustomerUpdate(readInput(CustomerInputSchema, body), { today: TODAY, current });
  if (!update.ok) throw new Error(`update refused: ${JSON.stringify(update.errors)}`);
  const applied = applyCustomerUpdate(current, update.value.fields);
  if (!applied.ok) throw new Error(`update refused: ${JSON.stringify(applied.errors)}`);
  return storedFields(applied.value, customerFieldsOf(customer.type));
}

const examplesOf = (schema: { examples?: unknown[] }) => (schema.examples ?? []) as Record<string, unknown>[];
const [exampleOwner] = examplesOf(upgradeBody).flatMap((body) => body.owners as Record<string, unknown>[]);

const owner = { first_name: 'Ada', last_name: 'Obi', ownership_percentage: 33.333334 };
const fullOwner = {
  ...exampleOwner,
  phone: '+234 801 234 5678',
  title: 'Director',
  has_control: true,
  is_signer: false,
  is_beneficial_owner: true,
  street: '12 Marina Road',
  city: 'Lagos',
  state: 'Lagos',
  zip_code: '101241',
  country: 'NG',
  tin: '12345678',
  is_pep: false,
  usa_tax_residency: false,
  ownership_percentage: 66.666666,
};
const business = {
  type: 'business',
  business_name: 'Acme Ltd',
  registration_number: 'RC123456',
  incorporation_country: 'NG',
  country: 'NG',
};
const fullBusiness = {
  ...business,
  kyb_scope: 'FULL',
  street: '12 Marina Road',
  city: 'Lagos',
  state: 'Lagos',
  zip_code: '101241',
  email: 'finance@example.com',
  phone: '+234 801 234 5678',
  trading_name: 'Acme',
  business_type: 'llc',
  incorporation_date: '2019-03-01',
  industry_type: 'logistics',
  business_description: 'Freight forwarding between Lagos and Accra',
  website: 'https://acme.example.com',
  source_of_funds: 'business_revenue',
  estimated_annual_revenue: '1000000_4999999',
  expected_monthly_payments: 120,
  account_purpose: 'send_receive_funds_related_parties',
  operating_country: 'GH',
  operating_street: '4 Independence Avenue',
  operating_city: 'Accra',
  operating_state: 'Greater Accra',
  operating_zip_code: 'GA-145-3456',
  owners: [owner, fullOwner],
};
const individual = { type: 'individual', first_name: 'Ada', last_name: 'Obi', country: 'NG' };
const fullIndividual = {
  ...individual,
  street: '12 Marina Road',
  city: 'Lagos',
  state: 'Lagos',
  zip_code: '101241',
  email: 'ada@example.com',
  phone: '+234 801 234 5678',
  date_of_birth: '1990-01-31',
  id_type: 'drivers_license',
  id_number: 'A08123456',
};

const creates: Record<string, Record<string, unknown>> = {
  'the create example': examplesOf(createCustomerBody)[0] ?? {},
  'a MINIMAL business': { ...business, kyb_scope: 'MINIMAL' },
  'a FULL business, owners with every field': fullBusiness,
  'a FULL business sent with nulls': {
    ...business,
    kyb_scope: 'FULL',
    website: null,
    trading_name: null,
    owners: [{ ...owner, tin: null, ownership_percentage: 100 }],
  },
  'an individual': individual,
  'an individual with every field': fullIndividual,
  'an individual sent with nulls': { ...individual, email: null, id_type: null },
};

describe('the typed customer data answers exactly what is stored', () => {
  it.each(Object.entries(creates))('on create: %s', (_, body) => {
    const customer = created(body);
    expectStoredData(viewOf(customer.type, customer.fields, customer.owners));
  });

  const updates: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['the update example', fullBusiness, examplesOf(updateCustomerBody)[0] ?? {}],
    ['the kyc-data example', fullIndividual, examplesOf(kycDataBody)[0] ?? {}],
    [
      'nulls clear, omissions keep (business)',
      fullBusiness,
      { website: null, business_type: null, expected_monthly_payments: null, phone: 'x' },
    ],
    [
      'nulls clear, omissions keep (individual)',
      fullIndividual,
      { id_type: null, date_of_birth: null, city: 'Ibadan' },
    ],
  ];
  it.each(updates)('on update: %s', (_, body, change) => {
    const customer = created(body);
    expectStoredData(viewOf(customer.type, updated(customer, change), customer.owners));
  });

  it('for any stored record: every field set, null or absent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'individual' | 'business'>('individual', 'business'),
        storedRecord(IndividualDataSchema),
        storedRecord(BusinessDataSchema),
        fc.array(storedRecord(OwnerDataSchema), { maxLength: 3 }),
        (type, individualFields, businessFields, owners) => {
          const fields = type === 'individual' ? individualFields : businessFields;
          expectStoredData(viewOf(type, fields, type === 'business' ? owners : []));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('unset is null and every field is answered in the public order (the gateway vocabulary, the OpenAPI schemas)', () => {
    // The keys of an answer follow the data messages' declarations, so those are held to the order
    // the gateway has answered since 0.1.0 (its field vocabulary), not to a list derived from them.
    expect(jsonOfData(OwnerDataSchema, create(OwnerDataSchema))).toStrictEqual(
      Object.fromEntries(Object.keys(PUBLIC_OWNER_FIELDS).map((name) => [name, null])),
    );
    expect(Object.keys(jsonOfData(BusinessDataSchema, create(BusinessDataSchema)))).toStrictEqual(
      Object.keys(PUBLIC_CUSTOMER_FIELDS.business),
    );
    expect(Object.keys(jsonOfData(IndividualDataSchema, create(IndividualDataSchema)))).toStrictEqual(
      Object.keys(PUBLIC_CUSTOMER_FIELDS.individual),
    );
  });
});

type DataSchema = typeof IndividualDataSchema | typeof BusinessDataSchema | typeof OwnerDataSchema;

/** What a stored record may hold in a field: any text, any word of an enum, a whole count, a percentage. */
function storedValue(schema: DataSchema, field: DescField): fc.Arbitrary<string | number | boolean> {
  if (field.fieldKind === 'enum') {
    const wordOf = (number: number) => jsonOfData(schema, create(schema, { [field.localName]: number }))[field.name];
    return fc.constantFrom(
      ...field.enum.values.filter((value) => value.number !== 0).map((value) => wordOf(value.number) as string),
    );
  }
  if (field.fieldKind === 'scalar' && field.scalar === ScalarType.BOOL) return fc.boolean();
  if (field.fieldKind === 'scalar' && field.scalar === ScalarType.INT64) return fc.maxSafeNat();
  if (field.name === 'ownership_percentage')
    return fc.integer({ min: 0, max: 100_000_000 }).map((millionths) => millionths / 1_000_000);
  return fc.string();
}

/** A stored record of a data message's fields, each set or absent (absent answers as null). */
function storedRecord(schema: DataSchema): fc.Arbitrary<Stored> {
  const fields = schema.fields.map((field) => [field.name, storedValue(schema, field)] as const);
  return fc.record(Object.fromEntries(fields), { requiredKeys: [] }) as fc.Arbitrary<Stored>;
}
