import type { DescEnum } from '@bufbuild/protobuf';
import {
  KycRejectionType,
  KycRejectionTypeSchema,
  KycRequirement,
  KycRequirementSchema,
  KycResult,
  KycResultSchema,
  KycSessionStatus,
  KycSessionStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { adminOpenApiDocument } from '../../admin/document.js';
import { openApiDocument } from '../../openapi/document.js';
import type { ProtoVocabulary } from '../payments/vocabulary.js';
import { KYC_SESSION_ROUTES } from './kyc-session-routes.js';
import {
  CAPTURE_KINDS,
  KYC_REJECTION_TYPES,
  KYC_REQUIREMENTS,
  KYC_RESULTS,
  KYC_SESSION_STATUSES,
} from './vocabulary.js';

/**
 * One vocabulary (DESIGN.md "Contracts are typed"): the words of the KYC session contract and
 * customer-kyb's proto enums they are sent as cannot drift apart.
 */

/** The words of a proto enum spelled from its value names, independently of vocabulary.ts. */
function wordsOf(descriptor: DescEnum): string[] {
  const prefix = `${descriptor.name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}_`;
  return descriptor.values
    .filter((value) => value.number !== 0)
    .map((value) => {
      expect(value.name.startsWith(prefix)).toBe(true);
      return value.name.slice(prefix.length);
    });
}

describe('the KYC session vocabulary', () => {
  it('maps the words of decision 0016 to the proto values', () => {
    expect(KYC_REQUIREMENTS.words).toEqual(['DOCUMENTS', 'SELFIE', 'FACE_MATCH']);
    expect(KYC_REQUIREMENTS.toProto('FACE_MATCH')).toBe(KycRequirement.FACE_MATCH);
    expect(KYC_SESSION_STATUSES.words).toEqual(['PENDING', 'PROCESSING', 'COMPLETED', 'EXPIRED', 'CANCELLED']);
    expect(KYC_SESSION_STATUSES.toWord(KycSessionStatus.CANCELLED, 'status')).toBe('CANCELLED');
    expect(KYC_RESULTS.toProto('REJECTED')).toBe(KycResult.REJECTED);
    expect(KYC_REJECTION_TYPES.toWord(KycRejectionType.RETRYABLE, 'rejection_type')).toBe('RETRYABLE');
  });

  const VOCABULARIES: [ProtoVocabulary<number>, DescEnum][] = [
    [KYC_REQUIREMENTS, KycRequirementSchema],
    [KYC_SESSION_STATUSES, KycSessionStatusSchema],
    [KYC_RESULTS, KycResultSchema],
    [KYC_REJECTION_TYPES, KycRejectionTypeSchema],
  ];

  it.each(VOCABULARIES)('%# has a word for every value but UNSPECIFIED, and back', (vocabulary, descriptor) => {
    expect(vocabulary.words).toEqual(wordsOf(descriptor));
    for (const value of descriptor.values.filter(({ number }) => number !== 0)) {
      expect(vocabulary.toProto(vocabulary.toWord(value.number, 'field'))).toBe(value.number);
    }
    expect(() => vocabulary.toWord(0, 'status')).toThrow(/^customer-kyb sent status 0, not a corridor\.customer\.v1\./);
    expect(() => vocabulary.toWord(1_000, 'status')).toThrow(RangeError);
    expect(() => vocabulary.toProto('UNSPECIFIED')).toThrow(RangeError);
  });
});

describe('the OpenAPI document against the KYC session protos', () => {
  const document = openApiDocument({ tokenRequestsPerMinute: 30 });

  /** Every `enum` under `node`, by its JSON pointer. */
  function enumsUnder(node: unknown, pointer: string, found: Map<string, unknown[]>): Map<string, unknown[]> {
    if (Array.isArray(node)) node.forEach((item, index) => enumsUnder(item, `${pointer}/${index}`, found));
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'enum' && Array.isArray(value)) found.set(pointer, value);
        else enumsUnder(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
      }
    }
    return found;
  }

  const documented = new Map<string, unknown[]>();
  for (const name of ['KycSession', 'KycCapture']) {
    enumsUnder(document.components?.schemas?.[name], `#/components/schemas/${name}`, documented);
  }
  for (const route of KYC_SESSION_ROUTES) {
    const path = route.path.replace(/\//g, '~1');
    enumsUnder(document.paths?.[route.path]?.[route.method], `#/paths/${path}/${route.method}`, documented);
  }
  // The admin verdict's body, as the admin document shows it.
  const verdict = adminOpenApiDocument().paths?.['/admin/kyc-sessions/{id}/result']?.post?.requestBody;
  enumsUnder(
    verdict && 'content' in verdict ? verdict.content['application/json']?.schema : undefined,
    '#/admin/result',
    documented,
  );

  const SESSION = '#/components/schemas/KycSession/properties';
  const CREATE_BODY = '#/paths/~1api~1external~1kyc-session/post/requestBody/content/application~1json/schema';

  /** Where each public enum sits, and the proto enum it is sent as or read from. */
  const SENT_AS: Record<string, DescEnum> = {
    [`${SESSION}/requirements/items`]: KycRequirementSchema,
    [`${SESSION}/status`]: KycSessionStatusSchema,
    [`${SESSION}/result/anyOf/0`]: KycResultSchema,
    [`${SESSION}/rejection_type/anyOf/0`]: KycRejectionTypeSchema,
    [`${CREATE_BODY}/properties/requirements/items`]: KycRequirementSchema,
    '#/paths/~1api~1external~1kyc-session/get/parameters/1/schema': KycSessionStatusSchema,
    '#/admin/result/properties/result': KycResultSchema,
    '#/admin/result/properties/rejection_type': KycRejectionTypeSchema,
  };

  /** Public enums that are no proto enum: customer-kyb sends capture kinds as these strings. */
  const STRING_WORDS: Record<string, readonly string[]> = {
    '#/components/schemas/KycCapture/properties/kind': CAPTURE_KINDS,
  };

  it('has no public enum of KYC sessions that is not held against its proto enum (or its string words) here', () => {
    expect([...documented.keys()].sort()).toEqual([...Object.keys(SENT_AS), ...Object.keys(STRING_WORDS)].sort());
  });

  it.each(Object.entries(STRING_WORDS))('%s lists exactly its words', (pointer, words) => {
    expect(documented.get(pointer)).toEqual(words);
  });

  it.each(Object.entries(SENT_AS))('%s lists exactly the words of its proto enum', (pointer, descriptor) => {
    const words = documented.get(pointer);
    expect([...(words ?? [])].sort()).toEqual([...wordsOf(descriptor)].sort());
    expect(words).toHaveLength(new Set(words).size);
  });

  it('documents the status filter where the pointer above expects it', () => {
    const parameter = (document.paths?.['/api/external/kyc-session']?.get?.parameters?.[1] as { name?: string })?.name;
    expect(parameter).toBe('status');
  });
});
