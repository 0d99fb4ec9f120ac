import { Status } from '@corridor/grpc';
import {
  createTestCertificates,
  integrationDatabase,
  query,
  type TestCertificates,
  WebhookReceiver,
} from '@corridor/testing';
import { verifyWebhook } from '@corridor/webhook-signature';
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { failure } from '../../test/webhooks/domain-failure.js';
import type { NotificationContext } from '../context.js';
import { notificationDatabase } from '../database.js';
import { requestFor } from '../deliveries/attempt-delivery.js';
import { WebhookSender } from '../deliveries/send-webhook.js';
import { SIGNING_SECRET_PATTERN, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { getWebhook } from './get-webhook.js';
import { registerWebhook } from './register-webhook.js';
import { endSecretOverlap, rotateSigningSecret } from './rotate-signing-secret.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

const HOUR = 3_600_000;
const start = new Date('2026-11-21T10:00:00.000Z');
let clock = start;
const at = (hours: number) => new Date(start.getTime() + hours * HOUR);
const context: NotificationContext = {
  environment: 'sandbox',
  now: () => clock,
  secrets: new WebhookSecrets('n'.repeat(64)),
  webhookUrls: { allowCidrs: ['127.0.0.0/8'] },
};
const BODY = '{"event":"collection.successful","data":{"transaction_id":"tx_1"}}';

describe('notification: signing-secret rotation with overlap (real PostgreSQL; decision 0065)', () => {
  const database = integrationDatabase('notification', notificationDatabase);
  const { em } = database;
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  let sender: WebhookSender;

  beforeAll(async () => {
    certificates = await createTestCertificates();
    receiver = await WebhookReceiver.start({ certificates });
    sender = new WebhookSender({
      allowCidrs: ['127.0.0.0/8'],
      extraCa: certificates.caPem,
      timeoutMs: 5_000,
      connectTimeoutMs: 2_000,
    });
  });
  afterAll(async () => {
    await sender.close();
    await receiver.stop();
  });
  beforeEach(() => {
    clock = start;
  });

  async function registered() {
    const businessId = randomUUID();
    const url = receiver.url(`/hooks/${businessId}`);
    const webhook = await registerWebhook(em(), context, businessId, { collectionUrl: url, payoutUrl: url });
    return { businessId, webhook };
  }

  /** The secrets a delivery made at `now` is signed with, read from the stored registration. */
  async function signingAt(webhookId: string, now: Date) {
    const endpoint = await em().findOneOrFail(WebhookEndpoint, { id: webhookId });
    return context.secrets.inForce(endpoint, endpoint.id, now);
  }

  /** Sends a delivery as the worker signs it at `now`, and returns what the receiver got. */
  async function deliveredAt(webhookId: string, now: Date) {
    const delivery = { endpointId: webhookId, destination: 'collection_url' as const };
    const request = await requestFor(em(), context.secrets, delivery, now);
    if (!request) throw new Error('no registration');
    const deliveryId = `msg_${randomUUID()}`;
    const result = await sender.send({ ...request, body: BODY, webhookId: deliveryId });
    expect(result.outcome).toBe('succeeded');
    const received = receiver.requests.find((r) => r.headers['x-corridor-webhook-id'] === deliveryId);
    if (!received) throw new Error('the receiver got nothing');
    return received;
  }

  /** Whether the npm standardwebhooks package, given `secret` as the platform holds it, accepts the delivery. */
  function standardVerifies(secret: string, received: { rawBody: string; headers: Record<string, string> }) {
    try {
      new Webhook(secret).verify(received.rawBody, received.headers);
      return true;
    } catch {
      return false;
    }
  }

  it('rotates: a new secret shown once, the old one signing beside it for 24 h, then the new one alone', async () => {
    const { businessId, webhook } = await registered();
    clock = at(1);
    const rotated = await rotateSigningSecret(em(), context, businessId, { webhookId: webhook.id });
    expect(rotated.signingSecret).toMatch(SIGNING_SECRET_PATTERN);
    expect(rotated.signingSecret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
    expect(rotated.signingSecret).not.toBe(webhook.signingSecret);
    expect(rotated).toMatchObject({
      signingSecretLast4: rotated.signingSecret.slice(-4),
      previousSigningSecretLast4: webhook.signingSecret.slice(-4),
      previousSigningSecretExpiresAt: { seconds: BigInt(at(25).getTime() / 1000) },
    });
    expect(await signingAt(webhook.id, at(24.9))).toEqual([rotated.signingSecret, webhook.signingSecret]);
    // The window ends by time: nothing has to run for the old secret to stop.
    expect(await signingAt(webhook.id, at(25))).toEqual([rotated.signingSecret]);
    const [row] = await query<{ sealed: Buffer; previous: Buffer }>(
      database.url,
      'select signing_secret_sealed as sealed, previous_signing_secret_sealed as previous from webhook_endpoint where id = $1',
      [webhook.id],
    );
    expect(row?.sealed.includes(Buffer.from(rotated.signingSecret))).toBe(false);
    expect(row?.previous.includes(Buffer.from(webhook.signingSecret))).toBe(false);
  });

  it('takes the overlap asked for, 0 (at once) to 7 days, and refuses another with nothing changed', async () => {
    const { businessId, webhook } = await registered();
    const none = await rotateSigningSecret(em(), context, businessId, { webhookId: webhook.id, overlapSeconds: 0 });
    expect(none.previousSigningSecretLast4).toBe('');
    expect(await signingAt(webhook.id, start)).toEqual([none.signingSecret]);
    const week = await rotateSigningSecret(em(), context, businessId, {
      webhookId: webhook.id,
      overlapSeconds: 604_800,
    });
    expect(week.previousSigningSecretExpiresAt?.seconds).toBe(BigInt(at(168).getTime() / 1000));
    for (const overlapSeconds of [-1, 604_801, 1.5]) {
      const error = await failure(
        rotateSigningSecret(em(), context, businessId, { webhookId: webhook.id, overlapSeconds }),
      );
      expect(error).toMatchObject({
        status: Status.INVALID_ARGUMENT,
        fieldErrors: { overlap_seconds: [expect.stringMatching(/from 0 to 604800 \(7 days\), got /)] },
      });
    }
    expect(await signingAt(webhook.id, start)).toEqual([week.signingSecret, none.signingSecret]);
  });

  it('rotating during an overlap drops the oldest: the secret just replaced overlaps the newest', async () => {
    const { businessId, webhook } = await registered();
    const second = await rotateSigningSecret(em(), context, businessId, { webhookId: webhook.id });
    clock = at(2);
    const third = await rotateSigningSecret(em(), context, businessId, { webhookId: webhook.id, overlapSeconds: 3600 });
    expect(third.previousSigningSecretLast4).toBe(second.signingSecret.slice(-4));
    expect(await signingAt(webhook.id, at(2.5))).toEqual([third.signingSecret, second.signingSecret]);
    expect(await signingAt(webhook.id, at(3))).toEqual([third.signingSecret]);
  });

  it('ends the overlap on demand; another business’s id is not found', async () => {
    const { businessId, webhook } = await registered();
    const rotated = await rotateSigningSecret(em(), context, businessId, { webhookId: webhook.id });
    const intruder = randomUUID();
    for (const call of [
      endSecretOverlap(em(), context, intruder, webhook.id),
      rotateSigningSecret(em(), context, intruder, { webhookId: webhook.id }),
      endSecretOverlap(em(), context, businessId, 'not-a-uuid'),
    ]) {
      expect(await failure(call)).toMatchObject({ status: Status.NOT_FOUND, reason: 'WEBHOOK_NOT_FOUND' });
    }
    expect(await signingAt(webhook.id, start)).toHaveLength(2);
    clock = at(1);
    const ended = await endSecretOverlap(em(), context, businessId, webhook.id);
    expect(ended).toMatchObject({ signingSecret: '', signingSecretLast4: rotated.signingSecretLast4 });
    expect(ended.previousSigningSecretLast4).toBe('');
    expect(ended.previousSigningSecretExpiresAt).toBeUndefined();
    expect(await signingAt(webhook.id, start)).toEqual([rotated.signingSecret]);
    expect((await getWebhook(em(), businessId)).updatedAt?.seconds).toBe(BigInt(at(1).getTime() / 1000));
  });

  it('real deliveries verify with the npm standardwebhooks package by old and new secret in the window, the new one only after', async () => {
    const { businessId, webhook } = await registered();
    // A secret issued before 0065: base64url, here with both of the characters only that alphabet has.
    const legacy = `whsec_${Buffer.concat([randomBytes(30), Buffer.from([0xfb, 0xff])]).toString('base64url')}`;
    expect(legacy).toMatch(/[-_]/);
    const endpoint = await em().findOneOrFail(WebhookEndpoint, { id: webhook.id });
    await em().nativeUpdate(
      WebhookEndpoint,
      { id: endpoint.id },
      { signingSecretSealed: context.secrets.seal(legacy, endpoint.id), signingSecretLast4: legacy.slice(-4) },
    );
    const seedHeaders = (received: { headers: Record<string, string> }) => ({
      'x-corridor-timestamp': received.headers['x-corridor-timestamp'],
      'x-corridor-signature': received.headers['x-corridor-signature'],
    });
    const event = JSON.parse(BODY) as unknown;

    // Before: the secret as held verifies under the seed's scheme; the package needs its standard alphabet.
    const before = await deliveredAt(webhook.id, start);
    expect(verifyWebhook({ secret: legacy, rawBody: before.rawBody, headers: seedHeaders(before) })).toEqual(event);
    const legacyStandard = `whsec_${Buffer.from(legacy.slice('whsec_'.length), 'base64url').toString('base64')}`;
    expect(standardVerifies(legacyStandard, before)).toBe(true);

    const rotated = await rotateSigningSecret(em(), context, businessId, { webhookId: webhook.id });
    const during = await deliveredAt(webhook.id, at(1));
    expect(standardVerifies(rotated.signingSecret, during)).toBe(true);
    expect(standardVerifies(legacyStandard, during)).toBe(true);
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    // Our verifier takes either secret as held; the seed's one-value header carries the new secret's.
    expect(verifyWebhook({ secret: legacy, rawBody: during.rawBody, headers: during.headers })).toEqual(event);
    expect(
      verifyWebhook({ secret: rotated.signingSecret, rawBody: during.rawBody, headers: seedHeaders(during) }),
    ).toEqual(event);

    const after = await deliveredAt(webhook.id, at(25));
    expect(standardVerifies(rotated.signingSecret, after)).toBe(true);
    expect(standardVerifies(legacyStandard, after)).toBe(false);
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => verifyWebhook({ secret: legacy, rawBody: after.rawBody, headers: after.headers })).toThrow(
      /no v1 entry of webhook-signature matches/,
    );
  });

  it('a secret issued from 0065 on verifies with the package exactly as it is held', async () => {
    const { webhook } = await registered();
    expect(webhook.signingSecret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
    expect(standardVerifies(webhook.signingSecret, await deliveredAt(webhook.id, start))).toBe(true);
  });
});
