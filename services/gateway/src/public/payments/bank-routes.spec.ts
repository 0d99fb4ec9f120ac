import { invalidArgument, notFound } from '@corridor/grpc';
import { accountLookupBody, bankListBody, beneficiaryBody, BANK_ROUTES } from './bank-routes.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID } from '../../../test/public/payments/payments.fixtures.js';
import { beneficiary, BENEFICIARY_ID, BENEFICIARY_JSON } from '../../../test/public/payments/payout.fixtures.js';
import { BeneficiaryList } from './payout-responses.js';

/** The banks, account lookups and saved beneficiaries a payout draws on, against a fake payments. */
describe('the bank and beneficiary routes (decision 0013)', () => {
  const payments = paymentRoutesUnderTest(BANK_ROUTES, ['bank:read', 'beneficiary:read']);

  const get = (path: string) => payments.call('get', path);

  /** 422 VALIDATION_FAILED naming exactly `field` with `problem`, and payments never asked. */
  const expectRefused = async (path: string, field: string, problem: RegExp) => {
    const response = await get(path);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    const errors = response.body.errors as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]?.[0]).toMatch(problem);
    expect(payments.calls).toHaveLength(0);
  };

  it('requires bank:read for banks and lookups, beneficiary:read for beneficiaries', () => {
    expect(BANK_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['get', '/api/external/bank', 'bank:read'],
      ['get', '/api/external/bank/account-lookup', 'bank:read'],
      ['get', '/api/external/beneficiary', 'beneficiary:read'],
      ['get', '/api/external/beneficiary/{id}', 'beneficiary:read'],
    ]);
  });

  it('GET /bank lists every bank with its scheme, asking payments for every country and currency', async () => {
    const response = await get('/api/external/bank');
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'banks retrieved',
        data: [
          { code: '058', name: 'Guaranty Trust Bank', country: 'NG', currency: 'NGN', scheme: 'nuban' },
          { code: '040004', name: 'Monzo Bank', country: 'GB', currency: 'GBP', scheme: 'sort_code' },
          { code: 'DEUTDEFFXXX', name: 'Deutsche Bank', country: 'DE', currency: 'EUR', scheme: 'iban' },
          { code: '021000021', name: 'JPMorgan Chase Bank', country: 'US', currency: 'USD', scheme: 'aba' },
        ],
      },
    });
    expect(bankListBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'listBanks',
      request: { country: '', currency: '' },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('GET /bank passes the country and currency filters', async () => {
    payments.answers.set('listBanks', () => ({ banks: [] }));
    expect(await get('/api/external/bank?country=GB&currency=GBP')).toEqual({
      status: 200,
      body: { message: 'banks retrieved', data: [] },
    });
    expect(payments.calls[0]?.request).toMatchObject({ country: 'GB', currency: 'GBP' });
  });

  it.each([
    ['country=ng', 'country', /^must be an ISO 3166 country code such as NG, got "ng"$/],
    ['country=NGA', 'country', /ISO 3166 country code/],
    ['currency=naira', 'currency', /^must be a currency code such as NGN, got "naira"$/],
    ['bank_code=058', 'bank_code', /^is not a recognised query parameter; use country, currency$/],
    ['country=NG&country=GB', 'country', /^must be given once$/],
  ])('GET /bank?%s is 422 naming %s', async (query, field, problem) => {
    await expectRefused(`/api/external/bank?${query}`, field, problem);
  });

  it('GET /bank/account-lookup answers the account and its holder from payments', async () => {
    const response = await get('/api/external/bank/account-lookup?bank_code=058&account_number=0123456789');
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'account retrieved',
        data: {
          bank_code: '058',
          bank_name: 'Guaranty Trust Bank',
          account_number: '0123456789',
          account_name: 'Adaeze Okafor',
          currency: 'NGN',
        },
      },
    });
    expect(accountLookupBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'lookupAccount',
      request: { bankCode: '058', accountNumber: '0123456789' },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('GET /bank/account-lookup names both parameters when neither is given', async () => {
    const response = await get('/api/external/bank/account-lookup');
    expect(response).toMatchObject({
      status: 422,
      body: { code: 'VALIDATION_FAILED', errors: { bank_code: ['is required'], account_number: ['is required'] } },
    });
    expect(payments.calls).toHaveLength(0);
  });

  it.each([
    ['bank_code=05%208&account_number=0123456789', 'bank_code', /3 to 11 letters or digits/],
    ['bank_code=058&account_number=0123-456789', 'account_number', /without spaces or dashes, got "0123-456789"$/],
    ['bank_code=058&account_number=GB29%20NWBK', 'account_number', /4 to 34 letters or digits/],
    ['bank_code=058', 'account_number', /^is required$/],
    ['bank_code=058&account_number=0123456789&name=x', 'name', /use bank_code, account_number$/],
  ])('GET /bank/account-lookup?%s is 422 naming %s', async (query, field, problem) => {
    await expectRefused(`/api/external/bank/account-lookup?${query}`, field, problem);
  });

  it.each([
    ['UNKNOWN_BANK', 'no bank 999'],
    ['INVALID_ACCOUNT_NUMBER', '0123456780 is not a valid NUBAN at 058'],
    ['ACCOUNT_NOT_FOUND', 'Guaranty Trust Bank has no account 9990000099'],
  ])("GET /bank/account-lookup answers payments' %s as 422 with its message", async (code, message) => {
    payments.answers.set('lookupAccount', () => {
      throw invalidArgument(message, undefined, code);
    });
    expect(await get('/api/external/bank/account-lookup?bank_code=058&account_number=9990000099')).toEqual({
      status: 422,
      body: { status: false, code, message },
    });
  });

  it('GET /bank/account-lookup answers 500 when payments names no account holder', async () => {
    payments.answers.set('lookupAccount', () => ({}));
    expect((await get('/api/external/bank/account-lookup?bank_code=058&account_number=0123456789')).status).toBe(500);
  });

  it('GET /beneficiary asks for the first page of 15 and answers the cursor envelope', async () => {
    const response = await get('/api/external/beneficiary');
    expect(response).toEqual({
      status: 200,
      body: {
        data: [BENEFICIARY_JSON],
        links: { first: null, last: null, prev: null, next: null },
        meta: {
          path: `${payments.base}/api/external/beneficiary`,
          per_page: 15,
          next_cursor: null,
          prev_cursor: null,
        },
      },
    });
    expect(BeneficiaryList.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'listBeneficiaries',
      request: { page: { cursor: '', limit: 15 } },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('GET /beneficiary links the next and previous pages with per_page kept and the cursor last', async () => {
    payments.answers.set('listBeneficiaries', () => ({
      beneficiaries: [beneficiary(), beneficiary({ lastUsedAt: undefined })],
      page: { nextCursor: 'older+/=', previousCursor: 'newer', limit: 2 },
    }));
    const response = await get('/api/external/beneficiary?per_page=2&cursor=now');
    const list = `${payments.base}/api/external/beneficiary?per_page=2`;
    expect(response.body).toMatchObject({
      data: [BENEFICIARY_JSON, { ...BENEFICIARY_JSON, last_used_at: null }],
      links: { prev: `${list}&cursor=newer`, next: `${list}&cursor=older%2B%2F%3D` },
      meta: { per_page: 2, next_cursor: 'older+/=', prev_cursor: 'newer' },
    });
    expect(BeneficiaryList.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]?.request).toMatchObject({ page: { cursor: 'now', limit: 2 } });
  });

  it.each([
    ['per_page=0', 'per_page', /^must be a whole number of beneficiaries from 1 to 100, got 0$/],
    ['per_page=101', 'per_page', /from 1 to 100/],
    ['cursor=', 'cursor', /must not be empty/],
    ['status=FAILED', 'status', /^is not a recognised query parameter; use cursor, per_page$/],
  ])('GET /beneficiary?%s is 422 naming %s', async (query, field, problem) => {
    await expectRefused(`/api/external/beneficiary?${query}`, field, problem);
  });

  it('GET /beneficiary/{id} answers the beneficiary', async () => {
    const response = await get(`/api/external/beneficiary/${BENEFICIARY_ID}`);
    expect(response).toEqual({ status: 200, body: { message: 'beneficiary retrieved', data: BENEFICIARY_JSON } });
    expect(beneficiaryBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({ method: 'getBeneficiary', request: { beneficiaryId: BENEFICIARY_ID } });
  });

  it('GET /beneficiary/{id} answers 404 for an id that is not a uuid, without asking payments', async () => {
    expect(await get('/api/external/beneficiary/ben_1')).toMatchObject({
      status: 404,
      body: { code: 'BENEFICIARY_NOT_FOUND' },
    });
    expect(payments.calls).toHaveLength(0);
  });

  it('GET /beneficiary/{id} passes payments’ 404 on', async () => {
    payments.answers.set('getBeneficiary', () => {
      throw notFound('BENEFICIARY_NOT_FOUND', `no beneficiary ${BENEFICIARY_ID} in this business`);
    });
    expect(await get(`/api/external/beneficiary/${BENEFICIARY_ID}`)).toMatchObject({
      status: 404,
      body: { code: 'BENEFICIARY_NOT_FOUND' },
    });
  });
});
