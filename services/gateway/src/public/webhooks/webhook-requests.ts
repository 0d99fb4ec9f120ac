import type { JsonObject, MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { z } from '@corridor/config';
import type {
  RegisterWebhookRequestSchema,
  ReplayFailedDeliveriesRequestSchema,
  TriggerMockWebhookRequestSchema,
  UpdateWebhookRequestSchema,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { describeJson, isJsonObject } from '@corridor/validation';
import { shown, typeProblem } from '../../floor/fields.js';
import { parseDateTime } from '../../floor/times.js';
import { EVENT_WORDS, WEBHOOK_EVENTS } from '@corridor/grpc/notification-words';

/**
 * What the webhook routes read (decisions 0009, 0010, 0026): the body's shape, checked here (422
 * VALIDATION_FAILED naming every field), then a typed request to notification. Each URL's rules
 * (HTTPS, at most 2048 characters, no credentials, public addresses only) and the order of since
 * and until are notification's: it resolves the hosts, and it is what any other caller reaches.
 * The document's bodies are schemas.ts's and delivery-schemas.ts's, held to these by
 * vocabulary.spec.ts.
 */

/** A URL as sent; notification says whether it is one (decision 0009). */
const url = () => z.string({ error: typeProblem('a string') });

/** kyc_url: a URL, or null for none. */
const nullableUrl = () => z.string({ error: typeProblem('a string or null') }).nullable();

/** PUT's collection_url and payout_url: never removed (seed 2.4), so null is refused, not read as absent. */
const requiredUrl = () =>
  z.string({
    error: (issue) =>
      issue.input === null ? 'cannot be null; omit it to leave it unchanged' : typeProblem('a string')(issue),
  });

export const RegisterWebhookBody = z.strictObject({
  collection_url: url(),
  payout_url: url(),
  kyc_url: nullableUrl().optional(),
});

export const UpdateWebhookBody = z.strictObject({
  collection_url: requiredUrl().optional(),
  payout_url: requiredUrl().optional(),
  kyc_url: nullableUrl().optional(),
});

type RegisterInit = MessageInitShape<typeof RegisterWebhookRequestSchema>;
type UpdateInit = MessageInitShape<typeof UpdateWebhookRequestSchema>;

/** Decision 0065: how long the replaced secret keeps signing; omitted is 24 h. */
export const RotateSigningSecretBody = z.strictObject({
  overlap_seconds: z
    .number({ error: typeProblem('a whole number of seconds') })
    .int({ error: 'must be a whole number of seconds' })
    .min(0, { error: 'must be from 0 to 604800 (7 days)' })
    .max(604_800, { error: 'must be from 0 to 604800 (7 days)' })
    .optional(),
});

/** POST /webhook: kyc_url omitted and null both mean none (seed 2.4). */
export function registerWebhookRequest(body: z.output<typeof RegisterWebhookBody>): RegisterInit {
  return {
    collectionUrl: body.collection_url,
    payoutUrl: body.payout_url,
    ...(typeof body.kyc_url === 'string' ? { kycUrl: body.kyc_url } : {}),
  };
}

/** PUT /webhook/{id}: what is omitted stays; kyc_url null removes it, which crosses as remove_kyc_url. */
export function updateWebhookRequest(webhookId: string, body: z.output<typeof UpdateWebhookBody>): UpdateInit {
  const kyc = body.kyc_url;
  return {
    webhookId,
    collectionUrl: body.collection_url,
    payoutUrl: body.payout_url,
    kycUrlChange:
      kyc === undefined
        ? { case: undefined }
        : kyc === null
          ? { case: 'removeKycUrl', value: true }
          : { case: 'kycUrl', value: kyc },
  };
}

/** A body's RFC 3339 date-time (the document's `date-time`), as the instant it names. */
const dateTime = (example: string, nullProblem?: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : issue.input === null && nullProblem !== undefined
            ? nullProblem
            : `must be an ISO 8601 date-time such as ${example}, got ${describeJson(issue.input)}`,
    })
    .transform((value, context) => {
      const instant = parseDateTime(value);
      if (instant === undefined) {
        context.addIssue({
          code: 'custom',
          message: `must be an ISO 8601 date-time with a time zone, such as ${example}, got ${shown(value)}`,
        });
        return z.NEVER;
      }
      return instant;
    });

export const ReplayFailedDeliveriesBody = z.strictObject({
  since: dateTime('2026-11-21T09:30:00Z'),
  // The document types until as a date-time, never null; read as absent, null would mean "now" (issue 18).
  until: dateTime(
    '2026-11-22T00:00:00Z',
    'must be an ISO 8601 date-time such as 2026-11-22T00:00:00Z, or left out for now; got null',
  ).optional(),
});

export function replayFailedDeliveriesRequest(
  body: z.output<typeof ReplayFailedDeliveriesBody>,
): MessageInitShape<typeof ReplayFailedDeliveriesRequestSchema> {
  return {
    since: timestampFromDate(body.since),
    ...(body.until === undefined ? {} : { until: timestampFromDate(body.until) }),
  };
}

/** One of the public event names. */
const eventName = () =>
  z.enum(WEBHOOK_EVENTS, {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : `must be one of ${WEBHOOK_EVENTS.join(', ')}, got ${shown(issue.input)}`,
  });

export const MockWebhookBody = z.strictObject({
  event: eventName(),
  // Free-form: each event's data has its own members, which notification checks against its example.
  // Passed on as sent, not rebuilt: a member named __proto__ stays a member, for notification to refuse.
  data: z
    .custom<JsonObject>(isJsonObject, {
      error: (issue) => `must be an object of fields replacing the example's, got ${describeJson(issue.input)}`,
    })
    .nullable()
    .optional(),
});

export function mockWebhookRequest(
  body: z.output<typeof MockWebhookBody>,
): MessageInitShape<typeof TriggerMockWebhookRequestSchema> {
  return {
    event: EVENT_WORDS.toProto(body.event),
    // null and omitted alike: nothing replaced.
    ...(body.data ? { data: body.data } : {}),
  };
}
