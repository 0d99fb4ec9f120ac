import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  NotificationService,
  WebhookConfigSchema,
  type WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import {
  createClient,
  registration,
  startGrpcServer,
  type CallerContext,
  type ClientOf,
  type RunningGrpcServer,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';

/** notification's answers as the gateway receives them, for the specs of the webhook routes. */

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b001';
export const WEBHOOK_ID = '5d0e6f1a-0000-4000-8000-00000000e001';
export const SIGNING_SECRET = 'whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkYz1';
export const CREATED = new Date('2026-11-21T09:00:00.000Z');
export const UPDATED = new Date('2026-11-21T10:30:00.000Z');

type WebhookOverrides = Partial<Omit<WebhookConfig, '$typeName' | '$unknown'>>;

export function webhookConfig(overrides: WebhookOverrides = {}): WebhookConfig {
  return create(WebhookConfigSchema, {
    id: WEBHOOK_ID,
    businessId: BUSINESS_ID,
    collectionUrl: 'https://platform.example/hooks/collections',
    payoutUrl: 'https://platform.example/hooks/payouts',
    kycUrl: '',
    signingSecret: SIGNING_SECRET,
    signingSecretLast4: SIGNING_SECRET.slice(-4),
    createdAt: timestampFromDate(CREATED),
    updatedAt: timestampFromDate(UPDATED),
    ...overrides,
  });
}

/** One call notification received: the method, the decoded request and the caller metadata. */
export interface ReceivedCall {
  method: string;
  request: Record<string, unknown>;
  caller: CallerContext;
}

/** A method's answer, or a DomainError to throw; replaces the default answer of that method. */
export type Answer = (request: Record<string, unknown>) => unknown;

/**
 * notification as a real gRPC server on loopback answering canned messages, so the specs cross the
 * same wire (Struct, Timestamp) as production without a database. By default every method answers
 * the registration with its secret, as a careless service might: GET must still leave it out.
 */
export async function startFakeNotificationService() {
  const calls: ReceivedCall[] = [];
  const answers = new Map<string, Answer>();
  const implementation = Object.fromEntries(
    NotificationService.methods.map((method) => [
      method.localName,
      async (request: Record<string, unknown>, context: { caller: CallerContext }) => {
        calls.push({ method: method.localName, request, caller: context.caller });
        const answer = answers.get(method.localName) ?? (() => ({ webhook: webhookConfig() }));
        return answer(request);
      },
    ]),
  );
  const server: RunningGrpcServer = await startGrpcServer({
    address: '127.0.0.1:0',
    services: [registration(NotificationService, implementation as never)],
    logger: createLogger('test', { level: 'silent' }),
  });
  const client: ClientOf<typeof NotificationService> = createClient(NotificationService, {
    address: `127.0.0.1:${server.port}`,
  });
  return {
    client,
    calls,
    answers,
    async stop() {
      client.close();
      await server.shutdown(1_000);
    },
  };
}
