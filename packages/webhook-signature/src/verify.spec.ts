import { type IncomingHttpHeaders } from 'node:http';
import {
  signWebhook,
  verifyWebhook,
  type VerifyWebhookInput,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './index.js';

const SECRET = 'whsec_corridor_test';
const TIMESTAMP = 1_700_000_000;
const BODY = '{"event":"merchant.kyc.session.completed","data":{"session_id":"kyc_ses_01","result":"APPROVED"}}';
// openssl dgst -sha256 -hmac 'whsec_corridor_test' over "1700000000.$BODY" (see sign.spec.ts).
const BODY_SIGNATURE = '35a41181e937c58173d8e9a2500226cb4848031a666e6fe84b77a39e3e8adbc0';
const PARSED = { event: 'merchant.kyc.session.completed', data: { session_id: 'kyc_ses_01', result: 'APPROVED' } };

const at = (unixSeconds: number) => new Date(unixSeconds * 1000);

/** A delivery as a platform's Node server sees it: lowercase keys, string values. */
function delivery(overrides: Partial<VerifyWebhookInput> = {}): VerifyWebhookInput {
  return {
    secret: SECRET,
    rawBody: BODY,
    headers: { 'x-corridor-timestamp': String(TIMESTAMP), 'x-corridor-signature': BODY_SIGNATURE },
    now: at(TIMESTAMP),
    ...overrides,
  };
}

function refusal(input: VerifyWebhookInput): WebhookVerificationError {
  try {
    verifyWebhook(input);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('expected the webhook to be refused');
}

function expectRefused(input: VerifyWebhookInput, reason: WebhookVerificationFailure, message: RegExp): void {
  const error = refusal(input);
  expect(error.reason).toBe(reason);
  expect(error.message).toMatch(message);
  expect(error.name).toBe('WebhookVerificationError');
}

/** Signs `body` with the real signer, returning what arrives at the platform. */
function signed(body: string | Buffer, secret = SECRET, timestamp = TIMESTAMP): VerifyWebhookInput {
  const headers = signWebhook({ secret, body, timestamp, webhookId: 'wh_1' });
  return { secret: SECRET, rawBody: body, headers, now: at(timestamp) };
}

describe('verifyWebhook', () => {
  it('accepts the known-answer vector and returns the parsed event', () => {
    expect(verifyWebhook(delivery())).toEqual(PARSED);
  });

  it('round-trips what signWebhook produced, with the current clock by default', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook({ secret: SECRET, body: BODY, timestamp: now, webhookId: 'wh_1' });
    expect(verifyWebhook({ secret: SECRET, rawBody: BODY, headers })).toEqual(PARSED);
  });

  it('verifies a Buffer body and a string body of the same bytes alike', () => {
    const body = '{"event":"merchant.kyc.session.expired","data":{"customer_reference":"Zo\u00eb"}}';
    const fromBuffer = signed(Buffer.from(body, 'utf8'));
    expect(verifyWebhook(fromBuffer)).toEqual(verifyWebhook({ ...fromBuffer, rawBody: body }));
    expect(verifyWebhook({ ...signed(body), rawBody: Buffer.from(body, 'utf8') }).data).toEqual({
      customer_reference: 'Zo\u00eb',
    });
  });

  it('refuses a body with one byte changed', () => {
    const tampered = Buffer.from(BODY, 'utf8');
    tampered[tampered.indexOf('APPROVED')] = 'B'.charCodeAt(0);
    expectRefused(delivery({ rawBody: tampered }), 'SIGNATURE_MISMATCH', /does not match 1700000000\.<body>/);
  });

  it('refuses the same JSON re-serialised, as a receiver using express.json() would hold it', () => {
    expectRefused(
      delivery({ rawBody: JSON.stringify(JSON.parse(BODY), null, 1) }),
      'SIGNATURE_MISMATCH',
      /exact bytes received, not re-serialised JSON/,
    );
  });

  it('refuses another secret and never reveals the expected signature', () => {
    const error = refusal(delivery({ secret: 'whsec_someone_else' }));
    expect(error.reason).toBe('SIGNATURE_MISMATCH');
    expect(error.message).toMatch(/under the signing secret/);
    expect(error.message).not.toContain(BODY_SIGNATURE);
  });

  it('refuses a signature made over another timestamp', () => {
    const headers = { 'x-corridor-timestamp': String(TIMESTAMP + 1), 'x-corridor-signature': BODY_SIGNATURE };
    expectRefused(delivery({ headers, now: at(TIMESTAMP) }), 'SIGNATURE_MISMATCH', /does not match 1700000001/);
  });

  it('accepts uppercase hex and refuses a signature of the wrong length or alphabet', () => {
    const headers = (signature: string) => ({
      'x-corridor-timestamp': '1700000000',
      'x-corridor-signature': signature,
    });
    expect(verifyWebhook(delivery({ headers: headers(BODY_SIGNATURE.toUpperCase()) }))).toEqual(PARSED);
    expectRefused(
      delivery({ headers: headers(BODY_SIGNATURE.slice(0, 63)) }),
      'SIGNATURE_MISMATCH',
      /must be 64 hexadecimal characters \(HMAC-SHA256\); got 63 characters$/,
    );
    expectRefused(
      delivery({ headers: headers(`sha256=${BODY_SIGNATURE}`) }),
      'SIGNATURE_MISMATCH',
      /got 71 characters with non-hex ones/,
    );
    expectRefused(
      delivery({ headers: headers(`${BODY_SIGNATURE.slice(0, 63)}g`) }),
      'SIGNATURE_MISMATCH',
      /got 64 characters with non-hex ones/,
    );
  });

  it('names the missing header', () => {
    expectRefused(
      delivery({ headers: { 'x-corridor-signature': BODY_SIGNATURE } }),
      'MISSING_HEADER',
      /^the x-corridor-timestamp header is missing or empty$/,
    );
    expectRefused(
      delivery({ headers: { 'x-corridor-timestamp': '1700000000', 'x-corridor-signature': '  ' } }),
      'MISSING_HEADER',
      /^the x-corridor-signature header is missing or empty$/,
    );
    expectRefused(
      delivery({ headers: { 'x-corridor-timestamp': '1700000000', 'x-corridor-signature': [] } }),
      'MISSING_HEADER',
      /x-corridor-signature/,
    );
  });

  it('refuses a timestamp that is not Unix seconds', () => {
    for (const timestamp of ['abc', '1700000000.5', '-1700000000', '1.7e9', '99999999999999999999']) {
      expectRefused(
        delivery({ headers: { 'x-corridor-timestamp': timestamp, 'x-corridor-signature': BODY_SIGNATURE } }),
        'MALFORMED_TIMESTAMP',
        /^x-corridor-timestamp must be Unix seconds \(digits only\); got "/,
      );
    }
  });

  describe('tolerance (seed 6.4 rule 2: more than 5 minutes away is refused)', () => {
    it('accepts exactly 300 s either way', () => {
      expect(verifyWebhook(delivery({ now: at(TIMESTAMP + 300) }))).toEqual(PARSED);
      expect(verifyWebhook(delivery({ now: at(TIMESTAMP - 300) }))).toEqual(PARSED);
      // The receiver's clock counts whole seconds: 300.999 s late is still 300.
      expect(verifyWebhook(delivery({ now: new Date((TIMESTAMP + 300) * 1000 + 999) }))).toEqual(PARSED);
    });

    it('refuses 301 s in the past', () => {
      expectRefused(
        delivery({ now: at(TIMESTAMP + 301) }),
        'TIMESTAMP_OUT_OF_TOLERANCE',
        /^x-corridor-timestamp 1700000000 is 301 s behind this receiver's clock \(2023-11-14T22:18:21\.000Z\); at most 300 s is accepted$/,
      );
    });

    it('refuses 301 s in the future', () => {
      expectRefused(
        delivery({ now: at(TIMESTAMP - 301) }),
        'TIMESTAMP_OUT_OF_TOLERANCE',
        /is 301 s ahead of this receiver's clock/,
      );
    });

    it('takes another tolerance when given one', () => {
      expect(verifyWebhook(delivery({ now: at(TIMESTAMP + 600), toleranceSeconds: 600 }))).toEqual(PARSED);
      expectRefused(delivery({ now: at(TIMESTAMP + 61), toleranceSeconds: 60 }), 'TIMESTAMP_OUT_OF_TOLERANCE', /60 s/);
    });

    it('checks the signature first, so a forged old request is a mismatch, not a stale one', () => {
      expectRefused(delivery({ secret: 'wrong', now: at(TIMESTAMP + 3600) }), 'SIGNATURE_MISMATCH', /does not match/);
    });
  });

  describe('body', () => {
    const malformed = (body: string | Buffer, message: RegExp) =>
      expectRefused(signed(body), 'MALFORMED_BODY', message);

    it('refuses authentic bytes that are not UTF-8 JSON', () => {
      malformed(Buffer.from([0x7b, 0xff, 0x7d]), /^the body is not valid UTF-8$/);
      malformed('{"event":', /^the body is not valid JSON: /);
      malformed('', /^the body is not valid JSON: /);
    });

    it('refuses JSON that is not { event, data }', () => {
      malformed('[]', /^the body must be a JSON object; got an array$/);
      malformed('"merchant.kyc.session.completed"', /^the body must be a JSON object; got the string/);
      malformed('{"data":{}}', /^body\.event must be a non-empty string; got nothing$/);
      malformed('{"event":"","data":{}}', /^body\.event must be a non-empty string; got the string ""$/);
      malformed('{"event":"merchant.kyc.session.completed"}', /^body\.data must be a JSON object; got nothing$/);
      malformed(
        '{"event":"merchant.kyc.session.completed","data":null}',
        /^body\.data must be a JSON object; got null$/,
      );
    });
  });

  describe('headers', () => {
    it('matches header names case-insensitively in a plain object', () => {
      const headers = { 'X-Corridor-Timestamp': '1700000000', 'X-CORRIDOR-SIGNATURE': BODY_SIGNATURE };
      expect(verifyWebhook(delivery({ headers }))).toEqual(PARSED);
    });

    it('reads a Fetch Headers object', () => {
      const headers = new Headers({ 'X-Corridor-Timestamp': '1700000000', 'x-corridor-signature': BODY_SIGNATURE });
      expect(verifyWebhook(delivery({ headers }))).toEqual(PARSED);
      headers.append('x-corridor-signature', BODY_SIGNATURE.replace(/^./, '0'));
      expectRefused(delivery({ headers }), 'SIGNATURE_MISMATCH', /was sent with 2 different values/);
    });

    it("reads Node's IncomingHttpHeaders, including array values", () => {
      const headers: IncomingHttpHeaders = {
        'content-type': 'application/json',
        'x-corridor-timestamp': '1700000000',
        'x-corridor-signature': [BODY_SIGNATURE],
      };
      expect(verifyWebhook(delivery({ headers }))).toEqual(PARSED);
      // The same value twice (a duplicating proxy; Node joins it as "a, a") is still one value.
      expect(
        verifyWebhook(delivery({ headers: { ...headers, 'x-corridor-signature': [BODY_SIGNATURE, BODY_SIGNATURE] } })),
      ).toEqual(PARSED);
      expect(
        verifyWebhook(delivery({ headers: { ...headers, 'x-corridor-timestamp': '1700000000, 1700000000' } })),
      ).toEqual(PARSED);
    });

    it('refuses two different values of one header rather than guessing', () => {
      expectRefused(
        delivery({
          headers: { 'x-corridor-timestamp': ['1700000000', '1700000001'], 'x-corridor-signature': BODY_SIGNATURE },
        }),
        'MALFORMED_TIMESTAMP',
        /^x-corridor-timestamp was sent with 2 different values \("1700000000", "1700000001"\); exactly one is expected$/,
      );
      expectRefused(
        delivery({
          headers: {
            'x-corridor-timestamp': '1700000000',
            'X-Corridor-Signature': BODY_SIGNATURE,
            'x-corridor-signature': 'ab',
          },
        }),
        'SIGNATURE_MISMATCH',
        /x-corridor-signature was sent with 2 different values/,
      );
    });
  });

  describe('several secrets (rotation)', () => {
    it('accepts a signature made with any of them, in any order', () => {
      expect(verifyWebhook(delivery({ secret: ['whsec_new', SECRET] }))).toEqual(PARSED);
      expect(verifyWebhook(delivery({ secret: [SECRET, 'whsec_new'] }))).toEqual(PARSED);
      expect(verifyWebhook({ ...signed(BODY, 'whsec_new'), secret: [SECRET, 'whsec_new'] })).toEqual(PARSED);
    });

    it('refuses when none matches, saying how many were tried', () => {
      expectRefused(
        delivery({ secret: ['whsec_a', 'whsec_b'] }),
        'SIGNATURE_MISMATCH',
        /under any of the 2 signing secrets/,
      );
    });
  });

  describe('Standard Webhooks headers during a rotation (decision 0065)', () => {
    const OLD = SECRET;
    const NEW = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const during = () => signWebhook({ secret: [NEW, OLD], body: BODY, timestamp: TIMESTAMP, webhookId: 'wh_1' });

    it('verifies by any entry of webhook-signature: the old secret and the new one alike', () => {
      for (const secret of [OLD, NEW, [OLD, NEW]]) {
        expect(verifyWebhook({ secret, rawBody: BODY, headers: during(), now: at(TIMESTAMP) })).toEqual(PARSED);
      }
    });

    it('refuses a third secret, and the old one once only the new one signs', () => {
      const error = refusal({ secret: 'whsec_someone_else', rawBody: BODY, headers: during(), now: at(TIMESTAMP) });
      expect(error.reason).toBe('SIGNATURE_MISMATCH');
      expect(error.message).toMatch(/no v1 entry of webhook-signature matches wh_1\.1700000000\.<body>/);
      const after = signWebhook({ secret: NEW, body: BODY, timestamp: TIMESTAMP, webhookId: 'wh_1' });
      expectRefused(
        { secret: OLD, rawBody: BODY, headers: after, now: at(TIMESTAMP) },
        'SIGNATURE_MISMATCH',
        /the signing secret/,
      );
    });

    it('signs the webhook-id: the same body and time under another id is refused', () => {
      const headers = { ...during(), 'webhook-id': 'wh_2' };
      expectRefused({ secret: NEW, rawBody: BODY, headers, now: at(TIMESTAMP) }, 'SIGNATURE_MISMATCH', /wh_2\./);
    });

    it('skips entries of other versions and reads duplicate header lines', () => {
      const [newest, oldest] = during()['webhook-signature'].split(' ');
      const headers = { ...during(), 'webhook-signature': [`v1a,${newest?.slice(3)}`, `${oldest}`] };
      expect(verifyWebhook({ secret: OLD, rawBody: BODY, headers, now: at(TIMESTAMP) })).toEqual(PARSED);
      expectRefused({ secret: NEW, rawBody: BODY, headers, now: at(TIMESTAMP) }, 'SIGNATURE_MISMATCH', /no v1 entry/);
    });

    it('judges freshness by webhook-timestamp', () => {
      expectRefused(
        { secret: NEW, rawBody: BODY, headers: during(), now: at(TIMESTAMP + 301) },
        'TIMESTAMP_OUT_OF_TOLERANCE',
        /^webhook-timestamp 1700000000 is 301 s behind/,
      );
    });
  });

  describe('misuse', () => {
    it('throws a TypeError, not a refusal, when the body was already parsed', () => {
      const parsedBody = JSON.parse(BODY) as unknown as string;
      expect(() => verifyWebhook(delivery({ rawBody: parsedBody }))).toThrow(TypeError);
      expect(() => verifyWebhook(delivery({ rawBody: parsedBody }))).toThrow(
        /got an object\. With Express, use express\.raw\(\{ type: 'application\/json' \}\)/,
      );
    });

    it('throws on an empty secret list, an empty secret or a bad tolerance', () => {
      expect(() => verifyWebhook(delivery({ secret: [] }))).toThrow(/non-empty array/);
      expect(() => verifyWebhook(delivery({ secret: [SECRET, ''] }))).toThrow(
        /every secret must be a non-empty string/,
      );
      expect(() => verifyWebhook(delivery({ toleranceSeconds: Number.POSITIVE_INFINITY }))).toThrow(RangeError);
      expect(() => verifyWebhook(delivery({ toleranceSeconds: -1 }))).toThrow(RangeError);
    });
  });
});
