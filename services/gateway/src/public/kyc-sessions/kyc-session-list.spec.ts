import { KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { invalidArgument } from '@corridor/grpc';
import { kycSessionRoutesUnderTest } from '../../../test/public/kyc-sessions/fake-kyc-session-service.js';
import {
  CUSTOMER_ID,
  DOCUMENT_CAPTURE_JSON,
  kycSessionJson,
  processingSession,
} from '../../../test/public/kyc-sessions/kyc-session.fixtures.js';
import { KYC_SESSION_ROUTES } from './kyc-session-routes.js';
import { KycSessionList } from './responses.js';

/** GET /kyc-session (decision 0016): keyset cursor pages, as GET /virtual-account's, against a fake customer-kyb. */
describe('the KYC session list', () => {
  const kyb = kycSessionRoutesUnderTest(KYC_SESSION_ROUTES, ['customer:read']);
  const path = '/api/external/kyc-session';

  /** 422 VALIDATION_FAILED naming exactly `fields`, and customer-kyb never asked. */
  const expectRefused = async (
    response: Promise<{ status: number; body: Record<string, unknown> }>,
    fields: string[],
  ) => {
    const answer = await response;
    expect(answer).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(answer.body.errors as object).sort()).toEqual([...fields].sort());
    expect(kyb.calls).toHaveLength(0);
    return answer.body as { message: string; errors: Record<string, string[]> };
  };

  it('GET /kyc-session asks for the first page of 15 and answers the cursor envelope', async () => {
    const response = await kyb.call('get', path);
    expect(response).toEqual({
      status: 200,
      body: {
        data: [kycSessionJson(kyb.base)],
        links: { first: null, last: null, prev: null, next: null },
        meta: { path: `${kyb.base}${path}`, per_page: 15, next_cursor: null, prev_cursor: null },
      },
    });
    expect(KycSessionList.safeParse(response.body).error).toBeUndefined();
    expect(kyb.calls[0]?.request).toMatchObject({ page: { cursor: '', limit: 15 } });
    for (const filter of ['customerReference', 'status', 'customerId'])
      expect(kyb.calls[0]?.request[filter]).toBeUndefined();
  });

  it('GET /kyc-session sends each filter typed and links both neighbouring pages with them', async () => {
    kyb.answers.set('listKycSessions', () => ({
      sessions: [processingSession()],
      page: { nextCursor: 'older', previousCursor: 'newer', limit: 5 },
    }));
    const query = `customer_reference=person-42&status=PROCESSING&customer_id=${CUSTOMER_ID}&per_page=5`;
    const response = await kyb.call('get', `${path}?${query}&cursor=this`);
    expect(kyb.calls[0]?.request).toMatchObject({
      customerReference: 'person-42',
      status: KycSessionStatus.PROCESSING,
      customerId: CUSTOMER_ID,
      page: { cursor: 'this', limit: 5 },
    });
    expect(response.body).toMatchObject({
      links: { prev: `${kyb.base}${path}?${query}&cursor=newer`, next: `${kyb.base}${path}?${query}&cursor=older` },
      meta: { per_page: 5, next_cursor: 'older', prev_cursor: 'newer' },
    });
    expect(response.body.data).toEqual([
      expect.objectContaining({ status: 'PROCESSING', verification_url: null, captures: [DOCUMENT_CAPTURE_JSON] }),
    ]);
  });

  it.each([
    ['status=pending', 'status', /^must be one of PENDING, PROCESSING, COMPLETED, EXPIRED, CANCELLED, got "pending"$/],
    ['customer_id=42', 'customer_id', /must be a uuid/],
    ['per_page=0', 'per_page', /from 1 to 100/],
    ['per_page=101', 'per_page', /from 1 to 100/],
    ['status=PENDING&status=EXPIRED', 'status', /^must be given once$/],
    [
      'reference=x',
      'reference',
      /^is not a recognised query parameter; use customer_reference, status, customer_id, cursor, per_page$/,
    ],
  ])('GET /kyc-session?%s is 422 naming %s', async (query, field, problem) => {
    const body = await expectRefused(kyb.call('get', `${path}?${query}`), [field]);
    expect(body.errors[field]?.[0]).toMatch(problem);
  });

  it("GET /kyc-session passes on customer-kyb's refusal of a cursor that is not one of its pages", async () => {
    kyb.answers.set('listKycSessions', () => {
      throw invalidArgument('cursor is not a page of this list', { cursor: ['is not a page of this list'] });
    });
    expect(await kyb.call('get', `${path}?cursor=forged`)).toMatchObject({
      status: 422,
      body: { code: 'VALIDATION_FAILED', errors: { cursor: ['is not a page of this list'] } },
    });
  });
});
