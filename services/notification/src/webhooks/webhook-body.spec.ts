import { DomainError, Status } from '@corridor/grpc';
import type { NotificationContext } from '../context.js';
import { WebhookSecrets } from '../secrets/webhook-secrets.js';
import { validateRegistration, validateUpdate } from './webhook-body.js';

const context: NotificationContext = {
  environment: 'sandbox',
  now: () => new Date('2026-11-21T10:00:00.000Z'),
  secrets: new WebhookSecrets('n'.repeat(64)),
  webhookUrls: { allowCidrs: [], resolve: async () => [{ address: '93.184.215.14', family: 4 }] },
};

async function errorsOf(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a 422, got ${String(error)}`);
  expect(error.status).toBe(Status.INVALID_ARGUMENT);
  return { message: error.message, errors: error.fieldErrors };
}

describe('webhook bodies (decision 0009)', () => {
  it('register: kyc_url is optional, omitted or null both mean "not registered"', async () => {
    const urls = { collection_url: 'https://a.example.com/c', payout_url: 'https://a.example.com/p' };
    expect(await validateRegistration(urls, context)).toEqual({ ...urls, kyc_url: null });
    expect(await validateRegistration({ ...urls, kyc_url: null }, context)).toEqual({ ...urls, kyc_url: null });
  });

  it('update: only the properties sent, null kept for kyc_url', async () => {
    expect(await validateUpdate({}, context)).toEqual({});
    expect(await validateUpdate({ kyc_url: null }, context)).toEqual({ kyc_url: null });
    expect(await validateUpdate({ payout_url: 'https://a.example.com/p' }, context)).toEqual({
      payout_url: 'https://a.example.com/p',
    });
  });

  it('a body that is not a JSON object is refused as a whole', async () => {
    expect(await errorsOf(validateRegistration(['https://a.example.com'], context))).toEqual({
      message: '(body) must be a JSON object, got an array',
      errors: { '(body)': ['must be a JSON object, got an array'] },
    });
  });

  it('a key such as __proto__ is just an unrecognised field', async () => {
    const body = JSON.parse('{"__proto__": {"x": 1}, "collection_url": "https://a.example.com/c"}') as unknown;
    const { errors } = await errorsOf(validateUpdate(body, context));
    expect(Object.entries(errors ?? {})).toEqual([['__proto__', ['is not a recognised field']]]);
  });

  it('refuses a URL longer than 2048 characters and one that is not a URL, in the guard’s words', async () => {
    const long = `https://a.example.com/${'x'.repeat(2030)}`;
    expect(await errorsOf(validateUpdate({ collection_url: long, payout_url: 'not a url' }, context))).toEqual({
      message: `collection_url is ${long.length} characters long; the limit is 2048`,
      errors: {
        collection_url: [`is ${long.length} characters long; the limit is 2048`],
        payout_url: ['is not an absolute URL with a host (for example https://hooks.example.com/corridor)'],
      },
    });
  });
});
