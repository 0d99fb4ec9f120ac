import type { DescEnum, DescMessage } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import {
  AttemptErrorClassSchema,
  AttemptOutcomeSchema,
  AttemptTriggerSchema,
  DeliveryStatusSchema,
  RegisterWebhookRequestSchema,
  ReplayFailedDeliveriesRequestSchema,
  TriggerMockWebhookRequestSchema,
  UpdateWebhookRequestSchema,
  UrlDisabledReasonSchema,
  WebhookDestinationSchema,
  WebhookEvent,
  WebhookEventSchema,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { ProtoVocabulary } from '@corridor/grpc';
import type { z } from '@corridor/config';
import { openApiDocument } from '../../openapi/document.js';
import type { JsonSchema } from '../../http/json-schema.js';
import { WEBHOOK_DELIVERY_ROUTES, WEBHOOK_ROUTES } from './index.js';
import {
  ATTEMPT_ERROR_CLASSES,
  ATTEMPT_OUTCOMES,
  ATTEMPT_TRIGGERS,
  DELIVERY_STATUSES,
  DESTINATIONS,
  EVENT_WORDS,
  HISTORY_EVENTS,
  URL_DISABLED_REASONS,
  WEBHOOK_EVENTS,
} from '@corridor/grpc/notification-words';
import {
  MockWebhookBody,
  RegisterWebhookBody,
  ReplayFailedDeliveriesBody,
  UpdateWebhookBody,
} from './webhook-requests.js';

/**
 * One vocabulary (DESIGN.md "Contracts are typed", decision 0026): the webhook routes' document,
 * the gateway's body schemas and notification's proto cannot drift apart.
 */

/** A value's name less its enum's prefix: WEBHOOK_EVENT_REFUND_INITIATED is REFUND_INITIATED. */
function suffixesOf(descriptor: DescEnum): string[] {
  const prefix = `${descriptor.name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}_`;
  return descriptor.values
    .filter((value) => value.number !== 0)
    .map((value) => {
      expect(value.name.startsWith(prefix)).toBe(true);
      return value.name.slice(prefix.length);
    });
}

/** The public words of a proto enum, spelled from its value names independently of vocabulary.ts. */
const lowerWordsOf = (descriptor: DescEnum) => suffixesOf(descriptor).map((suffix) => suffix.toLowerCase());

/** Event names cannot be spelled from value names (dots); each must still name its value. */
const eventValueOf = (word: string) => word.replace(/\./g, '_').toUpperCase();

describe('the webhook vocabulary', () => {
  it('maps the words the contract names to notification’s values', () => {
    expect(EVENT_WORDS.toProto('customer.status_changed')).toBe(WebhookEvent.CUSTOMER_STATUS_CHANGED);
    expect(EVENT_WORDS.toProto('merchant.kyc.session.completed')).toBe(WebhookEvent.MERCHANT_KYC_SESSION_COMPLETED);
    expect(EVENT_WORDS.toWord(WebhookEvent.REFUND_INITIATED, 'event')).toBe('refund_initiated');
    expect(EVENT_WORDS.toWord(WebhookEvent.REFUND, 'event')).toBe('refund');
    expect(DESTINATIONS.words).toEqual(['kyc_url', 'collection_url', 'payout_url']);
    expect(ATTEMPT_OUTCOMES.words).toEqual(['in_flight', 'succeeded', 'failed', 'interrupted']);
    expect(ATTEMPT_ERROR_CLASSES.words).toContain('address_refused');
  });

  it('has one event name for every WebhookEvent value, each naming its own', () => {
    expect(HISTORY_EVENTS.map(eventValueOf).sort()).toEqual(suffixesOf(WebhookEventSchema).sort());
    expect(EVENT_WORDS.words).toEqual(
      suffixesOf(WebhookEventSchema).map((suffix) => {
        const word = HISTORY_EVENTS.find((event) => eventValueOf(event) === suffix);
        return word;
      }),
    );
  });

  const VOCABULARIES: [string, ProtoVocabulary<number>, DescEnum, string[]][] = [
    ['events', EVENT_WORDS, WebhookEventSchema, [...HISTORY_EVENTS]],
    ['url disabled reasons', URL_DISABLED_REASONS, UrlDisabledReasonSchema, lowerWordsOf(UrlDisabledReasonSchema)],
    ['destinations', DESTINATIONS, WebhookDestinationSchema, lowerWordsOf(WebhookDestinationSchema)],
    ['delivery statuses', DELIVERY_STATUSES, DeliveryStatusSchema, lowerWordsOf(DeliveryStatusSchema)],
    ['attempt triggers', ATTEMPT_TRIGGERS, AttemptTriggerSchema, lowerWordsOf(AttemptTriggerSchema)],
    ['attempt outcomes', ATTEMPT_OUTCOMES, AttemptOutcomeSchema, lowerWordsOf(AttemptOutcomeSchema)],
    ['attempt error classes', ATTEMPT_ERROR_CLASSES, AttemptErrorClassSchema, lowerWordsOf(AttemptErrorClassSchema)],
  ];

  it.each(VOCABULARIES)(
    '%s: a word for every value but UNSPECIFIED, and back',
    (_name, vocabulary, descriptor, words) => {
      expect([...vocabulary.words].sort()).toEqual([...words].sort());
      for (const value of descriptor.values.filter(({ number }) => number !== 0)) {
        expect(vocabulary.toProto(vocabulary.toWord(value.number, 'field'))).toBe(value.number);
      }
      expect(() => vocabulary.toWord(0, 'field')).toThrow(
        /^notification sent field 0, not a corridor\.notification\.v1\./,
      );
      expect(() => vocabulary.toWord(1_000, 'field')).toThrow(RangeError);
      expect(() => vocabulary.toProto('unspecified')).toThrow(RangeError);
    },
  );
});

describe('the OpenAPI document against notification’s proto', () => {
  const document = openApiDocument({ tokenRequestsPerMinute: 30 });
  const ROUTES = [...WEBHOOK_ROUTES, ...WEBHOOK_DELIVERY_ROUTES];
  const operation = (path: string, method: string) =>
    (document.paths?.[path] as Record<string, Record<string, unknown>> | undefined)?.[method];
  const component = (name: string) => document.components?.schemas?.[name] as JsonSchema | undefined;

  /** Every `enum` under `node`, by its JSON pointer. */
  function enumsUnder(node: unknown, pointer: string, found: Map<string, unknown[]>): Map<string, unknown[]> {
    if (Array.isArray(node)) node.forEach((item, index) => enumsUnder(item, `${pointer}/${index}`, found));
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'enum' && Array.isArray(value)) found.set(pointer, value);
        else if (key !== 'examples')
          enumsUnder(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
      }
    }
    return found;
  }

  const WEBHOOK_SCHEMAS = [
    'Webhook',
    'WebhookWithSecret',
    'WebhookDelivery',
    'WebhookDeliveryWithAttempts',
    'WebhookDeliveryAttempted',
    'WebhookAttempt',
  ];
  const documented = new Map<string, unknown[]>();
  for (const name of WEBHOOK_SCHEMAS) enumsUnder(component(name), `#/components/schemas/${name}`, documented);
  for (const route of ROUTES) {
    const path = route.path.replace(/\//g, '~1');
    enumsUnder(operation(route.path, route.method), `#/paths/${path}/${route.method}`, documented);
  }

  const MOCK_BODY = '#/paths/~1api~1external~1webhook~1mock/post/requestBody/content/application~1json/schema';
  const LIST = '#/paths/~1api~1external~1webhook~1deliveries/get/parameters';
  const event = [...WEBHOOK_EVENTS];
  /** Where each public enum sits in the document, and the words of the proto enum it crosses as. */
  const SENT_AS: Record<string, (string | null)[]> = {
    '#/components/schemas/WebhookAttempt/properties/trigger': lowerWordsOf(AttemptTriggerSchema),
    '#/components/schemas/WebhookAttempt/properties/outcome': lowerWordsOf(AttemptOutcomeSchema),
    ...Object.fromEntries(
      ['WebhookDelivery', 'WebhookDeliveryWithAttempts', 'WebhookDeliveryAttempted'].flatMap((name) => [
        [`#/components/schemas/${name}/properties/destination`, lowerWordsOf(WebhookDestinationSchema)],
        [`#/components/schemas/${name}/properties/status`, lowerWordsOf(DeliveryStatusSchema)],
      ]),
    ),
    ...Object.fromEntries(
      ['WebhookDelivery', 'WebhookDeliveryWithAttempts', 'WebhookDeliveryAttempted'].map((name) => [
        // A string of WebhookDelivery (decision 0068): its one word, or none.
        `#/components/schemas/${name}/properties/skipped_reason`,
        ['endpoint_disabled', null],
      ]),
    ),
    ...Object.fromEntries(
      ['collection_url', 'payout_url', 'kyc_url'].flatMap((kind) => {
        const health = `#/components/schemas/Webhook/properties/url_health/properties/${kind}/properties`;
        return [
          [`${health}/reason`, [...lowerWordsOf(UrlDisabledReasonSchema), null]],
          // WebhookUrlHealth.disabled, a bool, in words.
          [`${health}/status`, ['enabled', 'disabled']],
        ];
      }),
    ),
    [`${MOCK_BODY}/properties/event`]: event,
    [`${LIST}/0/schema`]: lowerWordsOf(DeliveryStatusSchema),
    [`${LIST}/1/schema`]: event,
  };

  it('has no public enum of the webhook routes that is not held against its proto enum here', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(SENT_AS).sort());
    const parameters = operation('/api/external/webhook/deliveries', 'get')?.parameters as { name: string }[];
    expect(parameters.slice(0, 2).map(({ name }) => name)).toEqual(['status', 'event']);
  });

  it.each(Object.entries(SENT_AS))('%s lists exactly the words of its proto enum', (pointer, words) => {
    const listed = documented.get(pointer) ?? [];
    expect([...listed].sort()).toEqual([...words].sort());
    expect(listed).toHaveLength(new Set(listed).size);
  });

  it('names every error class, and every event, in the prose of the fields that are free text in the document', () => {
    const attempt = component('WebhookAttempt')?.properties?.error_class?.description ?? '';
    for (const word of lowerWordsOf(AttemptErrorClassSchema)) expect(attempt).toMatch(new RegExp(`\\b${word}\\b`));
    const delivery = component('WebhookDelivery')?.properties?.event?.description ?? '';
    for (const word of WEBHOOK_EVENTS) expect(delivery).toContain(word);
  });

  /**
   * Each body as documented, as the gateway reads it (zod) and as it crosses (proto): the same
   * fields, the same required ones, null allowed in the same places. `nullAs` names the proto field
   * a documented null crosses as (UpdateWebhook's kyc_url null is remove_kyc_url).
   */
  const BODIES: [
    operationId: string,
    body: z.ZodObject,
    request: DescMessage,
    pathFields: string[],
    nullAs: Record<string, string>,
  ][] = [
    ['registerWebhook', RegisterWebhookBody, RegisterWebhookRequestSchema, [], {}],
    ['updateWebhook', UpdateWebhookBody, UpdateWebhookRequestSchema, ['webhook_id'], { kyc_url: 'remove_kyc_url' }],
    ['replayFailedWebhookDeliveries', ReplayFailedDeliveriesBody, ReplayFailedDeliveriesRequestSchema, [], {}],
    ['triggerMockWebhook', MockWebhookBody, TriggerMockWebhookRequestSchema, [], {}],
  ];

  const documentedBody = (operationId: string): JsonSchema => {
    const route = ROUTES.find((candidate) => candidate.operationId === operationId);
    const body =
      route &&
      (operation(route.path, route.method)?.requestBody as { content: Record<string, { schema: JsonSchema }> });
    const schema = body?.content['application/json']?.schema;
    if (!schema) throw new Error(`${operationId} documents no body`);
    return schema;
  };
  const allowsNull = (schema: JsonSchema | undefined) =>
    Array.isArray(schema?.type) ? schema.type.includes('null') : schema?.type === 'null';

  it.each(BODIES)(
    '%s: the document, the gateway’s schema and the proto request have the same fields',
    (operationId, body, request, pathFields, nullAs) => {
      const schema = documentedBody(operationId);
      const properties = Object.keys(schema.properties ?? {}).sort();
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(body.shape).sort()).toEqual(properties);

      // Every proto field is a documented property, the path's fields and the nulls' apart.
      const protoFields = request.fields.map((field) => field.name).filter((name) => !pathFields.includes(name));
      expect(protoFields.sort()).toEqual([...properties, ...Object.values(nullAs)].sort());

      // Required in the document = required by the gateway; an optional one can be absent in the proto
      // too (explicit presence: `optional`, a message or a oneof), and one that cannot is required.
      const required = [...(schema.required ?? [])].sort();
      const gatewayRequired = properties.filter((name) => !body.shape[name]?.safeParse(undefined).success);
      expect(gatewayRequired).toEqual(required);
      for (const name of properties) {
        const explicit =
          request.fields.find((field) => field.name === name)?.presence === FeatureSet_FieldPresence.EXPLICIT;
        expect({ name, canBeAbsent: explicit || required.includes(name) }).toEqual({ name, canBeAbsent: true });
      }

      // null is documented where the gateway takes it, but for the mock's data: the document says an
      // object, and null (nothing replaced) was taken before bodies were typed, so it still is.
      for (const name of properties) {
        const tolerated = operationId === 'triggerMockWebhook' && name === 'data';
        const takesNull = !tolerated && (body.shape[name]?.safeParse(null).success ?? false);
        expect({ name, null: allowsNull(schema.properties?.[name] as JsonSchema | undefined) }).toEqual({
          name,
          null: takesNull,
        });
      }
    },
  );
});
