import { DomainError, Status } from '@corridor/grpc';
import type { NotificationContext } from '../context.js';
import { WebhookSecrets } from '../secrets/webhook-secrets.js';
import { validateRegistration, validateUpdate } from './webhook-urls.js';

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

const NO_KYC_CHANGE = { case: undefined };

describe('webhook URLs of the typed requests (decisions 0009, 0026)', () => {
  it('register: kyc_url absent means "not registered"; each URL as the URL standard writes it', async () => {
    const urls = { collectionUrl: 'HTTPS://A.example.com/c', payoutUrl: 'https://a.example.com/p' };
    expect(await validateRegistration(urls, context)).toEqual({
      collection_url: 'https://a.example.com/c',
      payout_url: 'https://a.example.com/p',
      kyc_url: null,
    });
    expect(await validateRegistration({ ...urls, kycUrl: 'https://a.example.com/k' }, context)).toMatchObject({
      kyc_url: 'https://a.example.com/k',
    });
  });

  it('update: only the URLs set; remove_kyc_url is kyc_url null, and false says nothing', async () => {
    const unset = { collectionUrl: undefined, payoutUrl: undefined };
    expect(await validateUpdate({ ...unset, kycUrlChange: NO_KYC_CHANGE }, context)).toEqual({});
    expect(await validateUpdate({ ...unset, kycUrlChange: { case: 'removeKycUrl', value: true } }, context)).toEqual({
      kyc_url: null,
    });
    expect(await validateUpdate({ ...unset, kycUrlChange: { case: 'removeKycUrl', value: false } }, context)).toEqual(
      {},
    );
    expect(
      await validateUpdate({ ...unset, payoutUrl: 'https://a.example.com/p', kycUrlChange: NO_KYC_CHANGE }, context),
    ).toEqual({ payout_url: 'https://a.example.com/p' });
  });

  it('refuses a URL longer than 2048 characters, one that is not a URL and an empty one, in the guard’s words', async () => {
    const long = `https://a.example.com/${'x'.repeat(2030)}`;
    expect(
      await errorsOf(
        validateUpdate(
          { collectionUrl: long, payoutUrl: 'not a url', kycUrlChange: { case: 'kycUrl', value: '' } },
          context,
        ),
      ),
    ).toEqual({
      message: `collection_url is ${long.length} characters long; the limit is 2048`,
      errors: {
        collection_url: [`is ${long.length} characters long; the limit is 2048`],
        payout_url: ['is not an absolute URL with a host (for example https://hooks.example.com/corridor)'],
        kyc_url: [expect.stringMatching(/\S/)],
      },
    });
  });
});
