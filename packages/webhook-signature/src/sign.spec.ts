import { signWebhook, standardSigningKey } from './index.js';

// Computed outside this code, with:
//   printf '%s' "1700000000.$BODY" | openssl dgst -sha256 -hmac 'whsec_corridor_test'
const SECRET = 'whsec_corridor_test';
const TIMESTAMP = 1_700_000_000;
const COMPLETED = '{"event":"merchant.kyc.session.completed","data":{"session_id":"kyc_ses_01","result":"APPROVED"}}';
const COMPLETED_SIGNATURE = '35a41181e937c58173d8e9a2500226cb4848031a666e6fe84b77a39e3e8adbc0';
// Non-ASCII text pins the UTF-8 encoding of string bodies (ë = c3 ab, Ü = c3 9c).
const EXPIRED = '{"event":"merchant.kyc.session.expired","data":{"customer_reference":"Zo\u00eb \u00dcnal"}}';
const EXPIRED_SIGNATURE = '0f139048546fcdd2c9f95fc0422bd89e18d6a124627eebdc0fd1ab80836f819d';

describe('signWebhook', () => {
  it('produces the known HMAC-SHA256 of "<timestamp>.<raw body>" in lowercase hex (seed 6.4 rule 1)', () => {
    expect(signWebhook({ secret: SECRET, body: COMPLETED, timestamp: TIMESTAMP, webhookId: 'wh_1' })).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Corridor-Webhooks/1.0',
      'x-corridor-timestamp': '1700000000',
      'x-corridor-signature': COMPLETED_SIGNATURE,
      'x-corridor-webhook-id': 'wh_1',
      'webhook-id': 'wh_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
  });

  it('signs webhook-signature as the Standard Webhooks specification’s own test vector does', () => {
    // The vector of the specification's reference libraries (secret, id, timestamp, payload, signature).
    const headers = signWebhook({
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      body: '{"test": 2432232314}',
      timestamp: 1_614_265_330,
      webhookId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('during a rotation: x-corridor-signature is the newest secret’s, webhook-signature has one entry per secret', () => {
    const NEWEST = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signedBy = (secret: string | string[]) =>
      signWebhook({ secret, body: COMPLETED, timestamp: TIMESTAMP, webhookId: 'wh_1' });
    const both = signedBy([NEWEST, SECRET]);
    expect(both['x-corridor-signature']).toBe(signedBy(NEWEST)['x-corridor-signature']);
    expect(both['webhook-signature']).toBe(
      `${signedBy(NEWEST)['webhook-signature']} ${signedBy(SECRET)['webhook-signature']}`,
    );
    expect(signedBy(SECRET)['x-corridor-signature']).toBe(COMPLETED_SIGNATURE);
    expect(() => signedBy([])).toThrow(/non-empty/);
  });

  it('keys webhook-signature with the bytes the secret encodes after whsec_, in either base64 alphabet', () => {
    const bytes = Buffer.from('fbff00e1'.repeat(8), 'hex');
    expect(standardSigningKey(`whsec_${bytes.toString('base64')}`)).toEqual(bytes);
    // Secrets issued before decision 0065 are base64url.
    expect(standardSigningKey(`whsec_${bytes.toString('base64url')}`)).toEqual(bytes);
  });

  it('signs a string body as its UTF-8 bytes, the same as the equivalent Buffer', () => {
    const fromString = signWebhook({ secret: SECRET, body: EXPIRED, timestamp: TIMESTAMP, webhookId: 'wh_2' });
    const fromBuffer = signWebhook({
      secret: SECRET,
      body: Buffer.from(EXPIRED, 'utf8'),
      timestamp: TIMESTAMP,
      webhookId: 'wh_2',
    });
    expect(fromString['x-corridor-signature']).toBe(EXPIRED_SIGNATURE);
    expect(fromBuffer['x-corridor-signature']).toBe(EXPIRED_SIGNATURE);
  });

  it('signs the bytes given, so the same JSON laid out differently gets another signature', () => {
    const reserialised = JSON.stringify(JSON.parse(COMPLETED), null, 2);
    const headers = signWebhook({ secret: SECRET, body: reserialised, timestamp: TIMESTAMP, webhookId: 'wh_1' });
    expect(headers['x-corridor-signature']).not.toBe(COMPLETED_SIGNATURE);
  });

  it('keeps the webhook id and changes timestamp and signature on a later attempt', () => {
    const first = signWebhook({ secret: SECRET, body: COMPLETED, timestamp: TIMESTAMP, webhookId: 'wh_1' });
    const retry = signWebhook({ secret: SECRET, body: COMPLETED, timestamp: TIMESTAMP + 60, webhookId: 'wh_1' });
    expect(retry['x-corridor-webhook-id']).toBe(first['x-corridor-webhook-id']);
    expect(retry['x-corridor-timestamp']).toBe('1700000060');
    expect(retry['x-corridor-signature']).not.toBe(first['x-corridor-signature']);
  });

  it('returns headers usable as a plain string record (fetch, http.request)', () => {
    const headers: Record<string, string> = signWebhook({
      secret: SECRET,
      body: COMPLETED,
      timestamp: TIMESTAMP,
      webhookId: 'wh_1',
    });
    expect(new Headers(headers).get('X-Corridor-Signature')).toBe(COMPLETED_SIGNATURE);
  });

  it('names the event’s sequence number in x-corridor-sequence when given, outside what is signed (decision 0067)', () => {
    const input = { secret: SECRET, body: COMPLETED, timestamp: TIMESTAMP, webhookId: 'wh_1' };
    const numbered = signWebhook({ ...input, sequence: 42 });
    expect(numbered['x-corridor-sequence']).toBe('42');
    expect(numbered['x-corridor-signature']).toBe(COMPLETED_SIGNATURE);
    expect('x-corridor-sequence' in signWebhook(input)).toBe(false);
    for (const sequence of [0, -1, 1.5]) {
      expect(() => signWebhook({ ...input, sequence })).toThrow(/sequence must be a whole number from 1/);
    }
  });

  it('refuses a millisecond, fractional or negative timestamp', () => {
    const sign = (timestamp: number) => () =>
      signWebhook({ secret: SECRET, body: COMPLETED, timestamp, webhookId: 'wh_1' });
    expect(sign(1_700_000_000_000)).toThrow(/looks like milliseconds/);
    expect(sign(1_700_000_000.5)).toThrow(/whole Unix seconds/);
    expect(sign(-1)).toThrow(/whole Unix seconds/);
  });

  it('refuses an empty secret and a webhook id that is not a clean header value', () => {
    expect(() => signWebhook({ secret: '', body: COMPLETED, timestamp: TIMESTAMP, webhookId: 'wh_1' })).toThrow(
      /every secret must be a non-empty string/,
    );
    for (const webhookId of ['', 'wh 1', 'wh_1\r\nx-injected: 1']) {
      expect(() => signWebhook({ secret: SECRET, body: COMPLETED, timestamp: TIMESTAMP, webhookId })).toThrow(
        /webhookId must be non-empty visible ASCII/,
      );
    }
  });
});
