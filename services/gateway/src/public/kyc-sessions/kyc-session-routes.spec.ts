import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { KycRequirement, KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { kycSessionRoutesUnderTest } from '../../../test/public/kyc-sessions/fake-kyc-session-service.js';
import {
  BUSINESS_ID,
  CUSTOMER_ID,
  DOCUMENT_CAPTURE_JSON,
  kycSession,
  kycSessionJson,
  rejectedSession,
  SESSION_ID,
  UPDATED,
} from '../../../test/public/kyc-sessions/kyc-session.fixtures.js';
import { KYC_SESSION_ROUTES } from './kyc-session-routes.js';
import { kycSessionBody, kycSessionCancelledBody, kycSessionCreatedBody } from './responses.js';

/** The KYC session routes (decision 0016) against customer-kyb over real gRPC (a fake service on loopback). */
describe('the KYC session routes', () => {
  const kyb = kycSessionRoutesUnderTest(KYC_SESSION_ROUTES, ['customer:read', 'customer:write']);

  const path = '/api/external/kyc-session';
  const create = (body: unknown) => kyb.call('post', path, body);
  const valid = { customer_reference: 'person-42', requirements: ['DOCUMENTS', 'FACE_MATCH'] };

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

  it('requires customer:write to create and cancel, customer:read to list and read', () => {
    expect(KYC_SESSION_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', path, 'customer:write'],
      ['get', path, 'customer:read'],
      ['get', `${path}/{id}`, 'customer:read'],
      ['post', `${path}/{id}/cancel`, 'customer:write'],
    ]);
  });

  it('POST /kyc-session creates a PENDING session, answering 201, where to read it and the person’s page on this host', async () => {
    const response = await fetch(`${kyb.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...valid,
        customer_id: CUSTOMER_ID,
        redirect_url: 'https://platform.example/kyc/done?flow=7',
      }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${path}/${SESSION_ID}`);
    const body = (await response.json()) as unknown;
    expect(body).toEqual({ message: 'kyc session created', data: kycSessionJson(kyb.base) });
    expect(kycSessionCreatedBody.safeParse(body).error).toBeUndefined();
    expect(kyb.calls[0]).toMatchObject({
      method: 'createKycSession',
      request: {
        customerReference: 'person-42',
        requirements: [KycRequirement.DOCUMENTS, KycRequirement.FACE_MATCH],
        customerId: CUSTOMER_ID,
        redirectUrl: 'https://platform.example/kyc/done?flow=7',
      },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('POST /kyc-session sends no customer_id or redirect_url when the platform gave none', async () => {
    expect((await create({ customer_reference: 'p', requirements: ['SELFIE'] })).status).toBe(201);
    expect(kyb.calls[0]?.request).toMatchObject({ requirements: [KycRequirement.SELFIE] });
    expect(kyb.calls[0]?.request.customerId).toBeUndefined();
    expect(kyb.calls[0]?.request.redirectUrl).toBeUndefined();
  });

  it.each([
    [{ customer_reference: undefined }, 'customer_reference', /^is required$/],
    [{ customer_reference: '' }, 'customer_reference', /^must not be empty$/],
    [{ customer_reference: '   ' }, 'customer_reference', /^must not be only spaces$/],
    [{ customer_reference: 'x'.repeat(256) }, 'customer_reference', /^must be at most 255 characters$/],
    [{ customer_reference: 'a\u0000b' }, 'customer_reference', /control characters/],
    [{ customer_reference: 42 }, 'customer_reference', /^must be a string, got 42$/],
    [{ requirements: undefined }, 'requirements', /^is required$/],
    [{ requirements: 'SELFIE' }, 'requirements', /^must be an array of DOCUMENTS, SELFIE, FACE_MATCH/],
    [{ requirements: [] }, 'requirements', /^must name at least one of DOCUMENTS, SELFIE, FACE_MATCH$/],
    [{ requirements: ['SELFIE', 'SELFIE'] }, 'requirements', /^must not repeat a requirement, got SELFIE twice$/],
    [
      { requirements: ['SELFIE', 'selfie'] },
      'requirements.1',
      /^must be one of DOCUMENTS, SELFIE, FACE_MATCH, got "selfie"$/,
    ],
    [{ customer_id: 'cus_1' }, 'customer_id', /^must be a uuid, got "cus_1"$/],
    [{ redirect_url: 'http://platform.example/done' }, 'redirect_url', /^must use https, got http$/],
    [{ redirect_url: '/done' }, 'redirect_url', /^must be an absolute URL/],
    [{ redirect_url: `https://platform.example/${'a'.repeat(2048)}` }, 'redirect_url', /^must be at most 2048/],
    [{ colour: 'red' }, 'colour', /^is not a recognised field$/],
  ])('POST /kyc-session refuses %j, naming %s, without asking customer-kyb', async (change, field, problem) => {
    const body = await expectRefused(create({ ...valid, ...change }), [field]);
    expect(body.errors[field]?.[0]).toMatch(problem);
  });

  it('POST /kyc-session names every problem of the body at once, and a body that is no object', async () => {
    await expectRefused(create({ requirements: ['EYES'], customer_id: 7 }), [
      'customer_reference',
      'requirements.0',
      'customer_id',
    ]);
    await expectRefused(create([valid]), ['(body)']);
  });

  it.each([
    [
      'KYC_REFERENCE_REJECTED',
      'customer_reference "person-42" was rejected with FINAL in KYC session 1: it cannot start another session',
      { customer_reference: ['was rejected with FINAL in KYC session 1'] },
    ],
    [
      'VALIDATION_FAILED',
      'customer_id 7c1e6a81-0000-4000-8000-00000000d013 is not one of your customers',
      { customer_id: ['is not one of your customers'] },
    ],
  ])(
    "POST /kyc-session answers customer-kyb's refusal %s as 422 with its message and errors",
    async (code, message, errors) => {
      kyb.answers.set('createKycSession', () => {
        throw invalidArgument(message, errors, code);
      });
      expect(await create(valid)).toEqual({ status: 422, body: { status: false, code, message, errors } });
    },
  );

  it('POST /kyc-session passes on the 409 of an Idempotency-Key still in flight', async () => {
    kyb.answers.set('createKycSession', () => {
      throw alreadyExists('IDEMPOTENCY_REQUEST_IN_FLIGHT', 'a request with this Idempotency-Key is in flight');
    });
    expect(await create(valid)).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_REQUEST_IN_FLIGHT' } });
  });

  it('GET /kyc-session/{id} answers the PENDING session with the page the person opens', async () => {
    const response = await kyb.call('get', `${path}/${SESSION_ID}`);
    expect(response).toEqual({
      status: 200,
      body: { message: 'kyc session retrieved', data: kycSessionJson(kyb.base) },
    });
    expect(kycSessionBody.safeParse(response.body).error).toBeUndefined();
    expect(kyb.calls[0]).toMatchObject({ method: 'getKycSession', request: { sessionId: SESSION_ID } });
  });

  it('GET /kyc-session/{id} shows a completed rejection: result, reason, type and captures; no page any more', async () => {
    kyb.answers.set('getKycSession', () => ({ session: rejectedSession() }));
    const response = await kyb.call('get', `${path}/${SESSION_ID}`);
    expect(response.body.data).toEqual({
      ...kycSessionJson(kyb.base),
      status: 'COMPLETED',
      result: 'REJECTED',
      rejection_reason: 'We could not verify your identity with the documents provided.',
      rejection_type: 'FINAL',
      verification_url: null,
      captures: [DOCUMENT_CAPTURE_JSON],
      updated_at: UPDATED.toISOString(),
      submitted_at: UPDATED.toISOString(),
      completed_at: UPDATED.toISOString(),
    });
    expect(kycSessionBody.safeParse(response.body).error).toBeUndefined();
  });

  it('GET /kyc-session/{id} shows absent customer_id and redirect_url as null, never leaves a key out', async () => {
    kyb.answers.set('getKycSession', () => ({
      session: kycSession({ customerId: undefined, redirectUrl: undefined }),
    }));
    const { data } = (await kyb.call('get', `${path}/${SESSION_ID}`)).body as { data: Record<string, unknown> };
    expect(data).toMatchObject({ customer_id: null, redirect_url: null });
    expect(Object.keys(data)).toEqual(Object.keys(kycSessionJson(kyb.base)));
    expect(JSON.stringify(data)).not.toContain('verification_token');
  });

  it('POST /kyc-session/{id}/cancel answers 200 with the CANCELLED session, no page any more', async () => {
    const response = await kyb.call('post', `${path}/${SESSION_ID}/cancel`);
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'kyc session cancelled',
        data: {
          ...kycSessionJson(kyb.base),
          status: 'CANCELLED',
          verification_url: null,
          updated_at: UPDATED.toISOString(),
          cancelled_at: UPDATED.toISOString(),
        },
      },
    });
    expect(kycSessionCancelledBody.safeParse(response.body).error).toBeUndefined();
    expect(kyb.calls[0]).toMatchObject({ method: 'cancelKycSession', request: { sessionId: SESSION_ID } });
  });

  it("POST /kyc-session/{id}/cancel answers customer-kyb's 400 KYC_SESSION_NOT_OPEN for a completed session", async () => {
    const message = `KYC session ${SESSION_ID} is already COMPLETED: only a PENDING or PROCESSING session can be cancelled`;
    kyb.answers.set('cancelKycSession', () => {
      throw failedPrecondition('KYC_SESSION_NOT_OPEN', message);
    });
    expect(await kyb.call('post', `${path}/${SESSION_ID}/cancel`)).toEqual({
      status: 400,
      body: { status: false, code: 'KYC_SESSION_NOT_OPEN', message },
    });
  });

  it.each([
    ['get', 'ks_1'],
    ['post', 'ks_1/cancel'],
  ])('%s /kyc-session/%s answers 404 KYC_SESSION_NOT_FOUND without asking customer-kyb', async (method, rest) => {
    expect(await kyb.call(method, `${path}/${rest}`)).toEqual({
      status: 404,
      body: { status: false, code: 'KYC_SESSION_NOT_FOUND', message: 'no KYC session ks_1 for this business' },
    });
    expect(kyb.calls).toHaveLength(0);
  });

  it.each([
    ['getKycSession', 'get', SESSION_ID],
    ['cancelKycSession', 'post', `${SESSION_ID}/cancel`],
  ])("passes on customer-kyb's 404 for a session of another business (%s)", async (method, verb, rest) => {
    kyb.answers.set(method, () => {
      throw notFound('KYC_SESSION_NOT_FOUND', `no KYC session ${SESSION_ID} for this business`);
    });
    expect(await kyb.call(verb, `${path}/${rest}`)).toMatchObject({
      status: 404,
      body: { code: 'KYC_SESSION_NOT_FOUND' },
    });
  });

  it('answers 500, not a session, when customer-kyb sends a status or capture kind the contract lacks', async () => {
    kyb.answers.set('getKycSession', () => ({ session: kycSession({ status: KycSessionStatus.UNSPECIFIED }) }));
    expect(await kyb.call('get', `${path}/${SESSION_ID}`)).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
    kyb.answers.set('getKycSession', () => ({
      session: kycSession({
        captures: [
          { kind: 'fingerprint', contentType: 'image/png', sizeBytes: 1n, capturedAt: timestampFromDate(UPDATED) },
        ],
      }),
    }));
    expect(await kyb.call('get', `${path}/${SESSION_ID}`)).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
  });
});
