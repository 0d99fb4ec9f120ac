import type { DescMessage } from '@bufbuild/protobuf';
import {
  CustomerFilesInputSchema,
  CustomerInputSchema,
  DocumentInputSchema,
  DocumentUploadInputSchema,
  FileUploadInputSchema,
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
  ReviewInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { REFUSED_CUSTOMER_PROPERTIES, REFUSED_OWNER_PROPERTIES } from '@corridor/contracts/customer-words';
import { enumWords, NULL_FIELDS } from '@corridor/grpc';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';

/**
 * Bodies of the customer routes (and the admin review) as platforms send them, right and wrong: each
 * field with each JSON type, every word of its enum, unknown and read-only properties, nulls, nested
 * owners and judgements, and the orders that decide a 422's message. A body is JSON text, read as
 * express reads it (JSON.parse), so `__proto__` is an own key and 1e400 is Infinity.
 */
export interface InputBody {
  readonly name: string;
  readonly message: DescMessage;
  /** JSON text; none is a request without a body. */
  readonly body?: string;
}

/** The bodies customer routes read, each with the name it is recorded under. */
export const INPUT_MESSAGES: readonly DescMessage[] = [
  CustomerInputSchema,
  OwnerFileUploadInputSchema,
  OwnerFileInputSchema,
  DocumentUploadInputSchema,
  DocumentInputSchema,
  FileUploadInputSchema,
  CustomerFilesInputSchema,
  ReviewInputSchema,
];

/** One value of each JSON type, and the numbers JSON.parse does not keep. */
const VALUES: Readonly<Record<string, string>> = {
  text: '"Acme"',
  'long text': JSON.stringify(`${'x'.repeat(39)}🙂🙂`),
  'empty text': '""',
  integer: '42',
  zero: '0',
  fraction: '33.333334',
  tiny: '1e-7',
  negative: '-1',
  'beyond 2^53': '1152921504606846976',
  infinite: '1e400',
  true: 'true',
  false: 'false',
  null: 'null',
  'empty array': '[]',
  'array of text': '["a"]',
  'array of objects': '[{}]',
  object: '{}',
};

/** A message's fields as JSON places them: a list's entries under `name.0.`. */
function places(root: DescMessage, message: DescMessage, wrap: (property: string) => string, at: string): InputBody[] {
  const cases: Omit<InputBody, 'message'>[] = [];
  for (const field of message.fields) {
    if (field.name === NULL_FIELDS) continue;
    const path = `${at}${field.name}`;
    for (const [label, value] of Object.entries(VALUES))
      cases.push({ name: `${path} as ${label}`, body: wrap(`{${JSON.stringify(field.name)}:${value}}`) });
    if (field.fieldKind === 'enum')
      for (const { word } of enumWords(field.enum, CUSTOMER_INPUT_WORDS))
        cases.push({
          name: `${path} as ${word}`,
          body: wrap(`{${JSON.stringify(field.name)}:${JSON.stringify(word)}}`),
        });
    if (field.fieldKind === 'message') {
      const [entries] = field.message.fields;
      if (entries?.fieldKind === 'list' && entries.listKind === 'message')
        cases.push(
          ...places(
            root,
            entries.message,
            (entry) => wrap(`{${JSON.stringify(field.name)}:[{},${entry}]}`),
            `${path}.1.`,
          ),
        );
      if (entries?.fieldKind === 'list' && entries.listKind === 'scalar')
        for (const [label, value] of Object.entries(VALUES))
          cases.push({ name: `${path}.1 as ${label}`, body: wrap(`{${JSON.stringify(field.name)}:["ok",${value}]}`) });
    }
  }
  return cases.map((entry) => ({ ...entry, message: root }));
}

const UNKNOWN_KEYS = ['surprise', '__proto__', 'constructor', 'toString', NULL_FIELDS, 'Type', '0', 'owners.0', ''];

function strangers(message: DescMessage): InputBody[] {
  return UNKNOWN_KEYS.flatMap((key) => [
    { name: `${message.name} with ${JSON.stringify(key)}`, message, body: `{${JSON.stringify(key)}:1}` },
    { name: `${message.name} with ${JSON.stringify(key)} as null`, message, body: `{${JSON.stringify(key)}:null}` },
  ]);
}

function readOnly(refused: Readonly<Record<string, string>>, wrap: (entry: string) => string, at: string) {
  return Object.keys(refused).flatMap((key) => [
    { name: `${at}${key} (read-only)`, message: CustomerInputSchema, body: wrap(`{${JSON.stringify(key)}:"x"}`) },
    {
      name: `${at}${key} (read-only) as null`,
      message: CustomerInputSchema,
      body: wrap(`{${JSON.stringify(key)}:null}`),
    },
  ]);
}

const business = {
  type: 'business',
  kyb_scope: 'FULL',
  business_name: 'Acme Ltd',
  registration_number: 'RC-1',
  incorporation_country: 'NG',
  trading_name: 'Acme',
  business_type: 'llc',
  incorporation_date: '2020-01-31',
  industry_type: 'retail',
  business_description: 'sells things',
  website: 'https://acme.example',
  source_of_funds: 'business_revenue',
  estimated_annual_revenue: '0_99999',
  expected_monthly_payments: 40,
  account_purpose: 'receive_payments_for_goods_and_services',
  operating_country: 'NG',
  operating_street: '1 Marina Road',
  operating_city: 'Lagos',
  operating_state: 'Lagos',
  operating_zip_code: '100001',
  country: 'NG',
  street: '1 Marina Road',
  city: 'Lagos',
  state: 'Lagos',
  zip_code: '100001',
  email: 'ops@acme.example',
  phone: '+2348000000000',
  owners: [
    {
      first_name: 'Ada',
      last_name: 'Obi',
      ownership_percentage: 100,
      email: 'ada@acme.example',
      phone: '+2348000000001',
      date_of_birth: '1980-02-29',
      nationality: 'NG',
      title: 'Director',
      has_control: true,
      is_signer: false,
      is_beneficial_owner: true,
      street: '2 Marina Road',
      city: 'Lagos',
      state: 'Lagos',
      zip_code: '100001',
      country: 'NG',
      id_document_type: 'passport',
      id_document_number: 'A1',
      id_document_country: 'NG',
      id_expiry_date: '2030-01-01',
      tin: '12345678',
      is_pep: false,
      usa_tax_residency: false,
    },
  ],
};

const individual = {
  type: 'individual',
  first_name: 'Ada',
  last_name: 'Obi',
  date_of_birth: '1980-02-29',
  id_type: 'passport',
  id_number: 'A1',
  country: 'NG',
  email: 'ada@example.com',
};

/** Several problems and nulls at once: their order is the body's. */
const tangled = {
  website: 42,
  '10': 'x',
  type: 'company',
  owners: [{ status: 'APPROVED', tin: null, has_control: 'yes', '2': 1, email: null }, 'not an owner'],
  trading_name: null,
  surprise: true,
  '2': null,
  documents: [],
  business_type: 'plc',
  city: null,
};

const reversed = (body: object) => Object.fromEntries(Object.entries(body).reverse());
const json = (name: string, message: DescMessage, body: unknown): InputBody => ({
  name,
  message,
  body: JSON.stringify(body),
});

export const INPUT_BODIES: readonly InputBody[] = [
  { name: 'no body', message: CustomerInputSchema },
  ...['[]', 'null', '"Acme"', '42', 'true', '{}'].map((body) => ({
    name: `body ${body}`,
    message: CustomerInputSchema,
    body,
  })),
  ...INPUT_MESSAGES.flatMap((message) => [
    ...places(message, message, (property) => property, `${message.name} `),
    ...strangers(message),
  ]),
  ...readOnly(REFUSED_CUSTOMER_PROPERTIES, (entry) => entry, ''),
  ...readOnly(REFUSED_OWNER_PROPERTIES, (entry) => `{"owners":[${entry}]}`, 'owners.0.'),
  ...UNKNOWN_KEYS.map((key) => ({
    name: `owners.0 with ${JSON.stringify(key)}`,
    message: CustomerInputSchema,
    body: `{"owners":[{${JSON.stringify(key)}:1}]}`,
  })),
  json('a whole business', CustomerInputSchema, business),
  json('a whole business, reversed', CustomerInputSchema, reversed(business)),
  json('a whole individual', CustomerInputSchema, individual),
  json('every field null', CustomerInputSchema, Object.fromEntries(Object.keys(business).map((key) => [key, null]))),
  json(
    'every field null, reversed',
    CustomerInputSchema,
    reversed(Object.fromEntries(Object.keys(business).map((key) => [key, null]))),
  ),
  json('an owner changed and one added', CustomerInputSchema, {
    owners: [
      { id: 'o-1', tin: null, ownership_percentage: 33.333334 },
      { first_name: 'Ada', email: null },
    ],
  }),
  json('a tangle of problems', CustomerInputSchema, tangled),
  json('a tangle of problems, reversed', CustomerInputSchema, reversed(tangled)),
  json('a review', ReviewInputSchema, {
    verdict: 'REJECTED',
    documents: [{ id: 'd-1', status: 'APPROVED', admin_comments: [] }],
    owners: [
      { id: 'o-1', status: 'REJECTED', admin_comments: ['blurred', 'expired'] },
      { id: null, status: null },
    ],
  }),
  json('a review with problems', ReviewInputSchema, {
    owners: [{ admin_comments: ['ok', 3, null], status: 'MAYBE', extra: 1 }, null],
    verdict: 'verified',
    documents: {},
  }),
];
