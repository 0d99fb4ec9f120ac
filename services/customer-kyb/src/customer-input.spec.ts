import { create, ScalarType, type DescEnum, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { CustomerInputSchema, OwnerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  AccountPurposeSchema,
  AnnualRevenueBandSchema,
  BusinessTypeSchema,
  CustomerTypeSchema,
  IdDocumentTypeSchema,
  IndividualFileCategorySchema,
  KybDocumentTypeSchema,
  KybScopeSchema,
  OwnerFileSlotSchema,
  ReviewStatusSchema,
  VerificationStatusSchema,
  SourceOfFundsSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { enumWords, NULL_FIELDS } from '@corridor/grpc';
import { protoEnumWords } from '@corridor/testing';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';
import { REVIEW_STATUSES, VERIFICATION_STATUSES } from './customers/customer.entity.js';
import { JUDGEMENTS, VERDICTS } from './customers/review-customer.js';
import {
  ACCOUNT_PURPOSES,
  ANNUAL_REVENUE_BANDS,
  BUSINESS_TYPES,
  CUSTOMER_FORMATS,
  CUSTOMER_TYPES,
  ID_DOCUMENT_TYPES,
  ID_SLOTS,
  KYB_DOCUMENT_TYPES,
  KYB_SCOPES,
  OWNER_FORMATS,
  SOURCES_OF_FUNDS,
  UPGRADE_FIELDS,
  calendarDateOf,
  sent,
  sentProperties,
  type CalendarDate,
} from './customers/rules/index.js';
import { FILE_CATEGORIES } from './files/individual-files.js';

/**
 * One vocabulary (DESIGN.md "Contracts are typed", decision 0025): customer-kyb's field lists and
 * enums against the proto its bodies arrive as, so neither can drift alone.
 */

const dataFieldsOf = (descriptor: DescMessage, besides: readonly string[]) =>
  descriptor.fields.filter((field) => ![NULL_FIELDS, ...besides].includes(field.name));

describe('customer-kyb’s words against customer_input.proto', () => {
  it.each<[string, readonly string[], DescEnum, 'upper' | 'lower']>([
    ['CUSTOMER_TYPES', CUSTOMER_TYPES, CustomerTypeSchema, 'lower'],
    ['KYB_SCOPES', KYB_SCOPES, KybScopeSchema, 'upper'],
    ['VERIFICATION_STATUSES', VERIFICATION_STATUSES, VerificationStatusSchema, 'upper'],
    ['REVIEW_STATUSES', REVIEW_STATUSES, ReviewStatusSchema, 'upper'],
    ['KYB_DOCUMENT_TYPES', KYB_DOCUMENT_TYPES, KybDocumentTypeSchema, 'upper'],
    ['ID_DOCUMENT_TYPES', ID_DOCUMENT_TYPES, IdDocumentTypeSchema, 'lower'],
    ['BUSINESS_TYPES', BUSINESS_TYPES, BusinessTypeSchema, 'lower'],
    ['SOURCES_OF_FUNDS', SOURCES_OF_FUNDS, SourceOfFundsSchema, 'lower'],
    ['ANNUAL_REVENUE_BANDS', ANNUAL_REVENUE_BANDS, AnnualRevenueBandSchema, 'lower'],
    ['ACCOUNT_PURPOSES', ACCOUNT_PURPOSES, AccountPurposeSchema, 'lower'],
    ['ID_SLOTS', ID_SLOTS, OwnerFileSlotSchema, 'lower'],
    ['FILE_CATEGORIES', FILE_CATEGORIES, IndividualFileCategorySchema, 'lower'],
  ])('%s are exactly the words of its proto enum, as the edge spells them', (_name, words, descriptor, casing) => {
    expect([...words]).toEqual(protoEnumWords(descriptor, casing));
    expect(enumWords(descriptor, CUSTOMER_INPUT_WORDS).map(({ word }) => word)).toEqual([...words]);
  });

  it('takes in a review only words of the proto enums it arrives as', () => {
    expect(JUDGEMENTS.every((word) => REVIEW_STATUSES.includes(word))).toBe(true);
    expect(VERDICTS.every((word) => VERIFICATION_STATUSES.includes(word))).toBe(true);
  });

  const today = calendarDateOf('2026-06-15');

  /** The JSON value a set proto field arrives as, which its format must accept as of its type. */
  function holdsAgainst(field: DescField, format: (value: unknown, today: CalendarDate) => { ok: boolean }) {
    const parse = (value: unknown) => format(value, today);
    if (field.fieldKind === 'enum') {
      const words = enumWords(field.enum, CUSTOMER_INPUT_WORDS).map(({ word }) => word);
      expect({ field: field.name, accepted: words.filter((word) => parse(word).ok) }).toEqual({
        field: field.name,
        accepted: words,
      });
      return;
    }
    expect(field.fieldKind).toBe('scalar');
    if (field.fieldKind !== 'scalar') return;
    const sample =
      field.scalar === ScalarType.BOOL
        ? true
        : field.scalar === ScalarType.INT64
          ? 40
          : CUSTOMER_INPUT_WORDS.isDecimal(field)
            ? 50
            : undefined;
    expect({ field: field.name, scalar: field.scalar }).toEqual({
      field: field.name,
      scalar: sample === true ? ScalarType.BOOL : sample === 40 ? ScalarType.INT64 : ScalarType.STRING,
    });
    if (sample !== undefined)
      expect({ field: field.name, ok: parse(sample).ok }).toEqual({ field: field.name, ok: true });
    // A string field's format refuses anything but a string: the proto type is what it reads.
    else expect({ field: field.name, ok: parse(42).ok }).toEqual({ field: field.name, ok: false });
  }

  it('has a CustomerInput field of a compatible type for every customer data field, and no other', () => {
    const fields = dataFieldsOf(CustomerInputSchema, ['type', 'kyb_scope', 'owners']);
    expect(fields.map((field) => field.name).sort()).toEqual(Object.keys(CUSTOMER_FORMATS).sort());
    for (const field of fields) holdsAgainst(field, CUSTOMER_FORMATS[field.name as keyof typeof CUSTOMER_FORMATS]);
    for (const name of UPGRADE_FIELDS) expect(fields.map((field) => field.name)).toContain(name);
  });

  it('has an OwnerInput field of a compatible type for every owner field of seed 2.2, and no other', () => {
    const fields = dataFieldsOf(OwnerInputSchema, ['id']);
    expect(fields.map((field) => field.name).sort()).toEqual(Object.keys(OWNER_FORMATS).sort());
    for (const field of fields) holdsAgainst(field, OWNER_FORMATS[field.name as keyof typeof OWNER_FORMATS]);
  });

  it('reads a typed body as the properties sent: public words and numbers, nulls, lists as their entries', () => {
    const input = create(CustomerInputSchema, {
      type: 2,
      businessType: 4,
      estimatedAnnualRevenue: 1,
      expectedMonthlyPayments: 40n,
      nullFields: ['website'],
      owners: { entries: [{ id: 'o-1', ownershipPercentage: '33.333334', hasControl: false, nullFields: ['tin'] }] },
    });
    const owners = input.owners?.entries ?? [];
    expect(sentProperties(CustomerInputSchema, input)).toEqual([
      ['type', 'business'],
      ['business_type', 'non_profit'],
      ['estimated_annual_revenue', '0_99999'],
      ['expected_monthly_payments', 40],
      ['owners', owners],
      ['website', null],
    ]);
    expect(sentProperties(OwnerInputSchema, owners[0] ?? create(OwnerInputSchema))).toEqual([
      ['id', 'o-1'],
      ['ownership_percentage', 33.333334],
      ['has_control', false],
      ['tin', null],
    ]);
    expect(sent(CustomerInputSchema, create(CustomerInputSchema, { owners: {} }), 'owners')).toEqual([]);
    expect(sentProperties(CustomerInputSchema, create(CustomerInputSchema))).toEqual([]);
    // UNSPECIFIED has no word: what the rules see as omitted.
    expect(sent(CustomerInputSchema, create(CustomerInputSchema, { type: 0 }), 'type')).toBeUndefined();
  });
});
