import { KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { DomainError, failedPrecondition, invalidArgument, notFound, Status } from '@corridor/grpc';
import { FILE_ID, kycSessionView, SESSION_ID, VERIFICATION_TOKEN } from '../../test/verify/verification.fixtures.js';
import { serveVerificationPage } from '../../test/verify/verification-page.fixture.js';

/** The JSON endpoints the verification page's script calls, against a fake KycSessionService. */
describe('the verification page’s endpoints /verify/{token}/uploads, /captures and /submit', () => {
  let served: Awaited<ReturnType<typeof serveVerificationPage>>;
  const path = (step: string, token = VERIFICATION_TOKEN) => `/verify/${token}/${step}`;
  const upload = { kind: 'selfie', content_type: 'image/png', content_length: 2048 };
  const calls = () => served.service.calls;

  beforeAll(async () => {
    served = await serveVerificationPage('sandbox');
  });
  afterAll(() => served.stop());
  beforeEach(() => {
    served.service.calls.length = 0;
    served.service.answers.clear();
  });

  it('uploads: issues a presigned PUT for the file, with the headers it must carry (201)', async () => {
    const { status, headers, body } = await served.post(path('uploads'), upload);
    expect(status).toBe(201);
    expect(body).toEqual({
      message: 'upload url created',
      data: {
        file_id: FILE_ID,
        upload_url: `http://127.0.0.1:9000/corridor-files/kyc/${FILE_ID}?X-Amz-Signature=abc`,
        method: 'PUT',
        headers: { 'content-type': 'image/png', 'content-length': '2048' },
        expires_at: '2026-11-25T09:00:00.000Z',
        max_size_bytes: 10_485_760,
      },
    });
    expect(headers.get('cache-control')).toBe('no-store');
    expect(calls()).toHaveLength(1);
    expect(calls()[0]).toMatchObject({
      method: 'createVerificationUpload',
      request: { token: VERIFICATION_TOKEN, kind: 'selfie', contentType: 'image/png', contentLength: 2048n },
    });
    expect(calls()[0]?.caller).toMatchObject({ environment: 'sandbox', businessId: undefined });
  });

  it.each([
    ['an unknown field', { ...upload, file_name: 'me.png' }, 'file_name', 'is not a recognised field'],
    ['a kind not a document or selfie', { ...upload, kind: 'passport' }, 'kind', 'must be document or selfie'],
    ['no kind', { content_type: 'image/png', content_length: 1 }, 'kind', 'is required'],
    [
      'a size as a string',
      { ...upload, content_length: '2048' },
      'content_length',
      'must be the file’s size in bytes (a JSON integer)',
    ],
    [
      'a fractional size',
      { ...upload, content_length: 1.5 },
      'content_length',
      'must be the file’s size in bytes (a JSON integer)',
    ],
    ['a size of 0', { ...upload, content_length: 0 }, 'content_length', 'must be the file’s size in bytes, 1 or more'],
    ['an empty content type', { ...upload, content_type: '' }, 'content_type', 'must not be empty'],
  ])(
    'uploads: refuses %s with 422 naming the field, without asking customer-kyb',
    async (_case, body, field, problem) => {
      const { status, body: answer } = await served.post(path('uploads'), body);
      expect(status).toBe(422);
      expect(answer).toMatchObject({ status: false, code: 'VALIDATION_FAILED', errors: { [field]: [problem] } });
      expect(calls()).toHaveLength(0);
    },
  );

  it('uploads: passes on customer-kyb’s refusal of the file as 422 with its field errors', async () => {
    served.service.answers.set('createVerificationUpload', () => {
      throw invalidArgument('the upload is not valid: content_type', {
        content_type: ['must be one of application/pdf, image/jpeg, image/png'],
      });
    });
    const { status, body } = await served.post(path('uploads'), { ...upload, content_type: 'image/gif' });
    expect(status).toBe(422);
    expect(body).toEqual({
      status: false,
      message: 'the upload is not valid: content_type',
      code: 'VALIDATION_FAILED',
      errors: { content_type: ['must be one of application/pdf, image/jpeg, image/png'] },
    });
  });

  it('captures: records the uploaded file and answers the session as the page shows it', async () => {
    const { status, body } = await served.post(path('captures'), { file_id: FILE_ID });
    expect(status).toBe(200);
    expect(body).toEqual({
      message: 'capture recorded',
      data: {
        session_id: SESSION_ID,
        business_name: 'Acme Stores Ltd',
        requirements: ['FACE_MATCH'],
        needs: ['document', 'selfie'],
        status: 'PENDING',
        captures: [
          { kind: 'document', content_type: 'image/png', size_bytes: 2048, captured_at: '2026-11-24T10:15:00.000Z' },
        ],
        expires_at: '2026-11-25T09:00:00.000Z',
        return_url: `https://shop.example/kyc/done?user=42&session_id=${SESSION_ID}&status=PENDING`,
      },
    });
    expect(calls()[0]).toMatchObject({
      method: 'addVerificationCapture',
      request: { token: VERIFICATION_TOKEN, fileId: FILE_ID },
    });
  });

  it('captures: refuses a body without file_id (422), and passes on a file not yet uploaded (422 file_id)', async () => {
    const missing = await served.post(path('captures'), {});
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { file_id: ['is required'] } });
    expect(calls()).toHaveLength(0);

    served.service.answers.set('addVerificationCapture', () => {
      throw invalidArgument('file_id has not been uploaded yet: PUT it to its upload_url first', {
        file_id: ['has not been uploaded yet: PUT it to its upload_url first'],
      });
    });
    const early = await served.post(path('captures'), { file_id: FILE_ID });
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { file_id: ['has not been uploaded yet: PUT it to its upload_url first'] },
    });
  });

  it('submit: the session is PROCESSING, with the way back carrying session_id and status', async () => {
    const { status, body } = await served.post(path('submit'));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      message: 'verification submitted',
      data: {
        session_id: SESSION_ID,
        status: 'PROCESSING',
        captures: [{ kind: 'document' }, { kind: 'selfie' }],
        return_url: `https://shop.example/kyc/done?user=42&session_id=${SESSION_ID}&status=PROCESSING`,
      },
    });
    expect(calls()[0]).toMatchObject({ method: 'submitVerification', request: { token: VERIFICATION_TOKEN } });
  });

  it('submit: without redirect_url there is no way back; an empty JSON object is a body like none', async () => {
    served.service.answers.set('submitVerification', () => ({
      view: kycSessionView({ status: KycSessionStatus.PROCESSING, redirectUrl: undefined }),
    }));
    const { status, body } = await served.post(path('submit'), {});
    expect(status).toBe(200);
    expect(body).toMatchObject({ data: { status: 'PROCESSING', return_url: null } });
  });

  it('submit: refuses a body with fields (422), and passes on what is still missing (422 captures)', async () => {
    const extra = await served.post(path('submit'), { force: true });
    expect(extra.status).toBe(422);
    expect(extra.body).toMatchObject({ errors: { force: ['is not a recognised field'] } });
    expect(calls()).toHaveLength(0);

    served.service.answers.set('submitVerification', () => {
      throw invalidArgument('this verification still needs a selfie', { captures: ['a selfie is required'] });
    });
    const missing = await served.post(path('submit'));
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      status: false,
      message: 'this verification still needs a selfie',
      code: 'VALIDATION_FAILED',
      errors: { captures: ['a selfie is required'] },
    });
  });

  describe.each([
    ['uploads', upload, 'createVerificationUpload'],
    ['captures', { file_id: FILE_ID }, 'addVerificationCapture'],
    ['submit', {}, 'submitVerification'],
  ])('%s', (step, body, method) => {
    it('answers a malformed token 404 VERIFICATION_NOT_FOUND without asking customer-kyb', async () => {
      for (const token of ['short', `${VERIFICATION_TOKEN}A`, `${VERIFICATION_TOKEN.slice(0, 42)}.`]) {
        const { status, body: answer } = await served.post(path(step, token), body);
        expect(status).toBe(404);
        expect(answer).toEqual({
          status: false,
          message: 'no verification has this link',
          code: 'VERIFICATION_NOT_FOUND',
        });
      }
      expect(calls()).toHaveLength(0);
    });

    it('passes on an unknown token (404), a session no longer pending (400) and customer-kyb down (503)', async () => {
      const refusals: [DomainError, number, string][] = [
        [notFound('VERIFICATION_NOT_FOUND', 'no verification has this link'), 404, 'VERIFICATION_NOT_FOUND'],
        [
          failedPrecondition(
            'VERIFICATION_NOT_PENDING',
            'this verification is already submitted: nothing more can be given',
          ),
          400,
          'VERIFICATION_NOT_PENDING',
        ],
        [new DomainError(Status.UNAVAILABLE, 'UPSTREAM_UNAVAILABLE', 'database down'), 503, 'SERVICE_UNAVAILABLE'],
      ];
      for (const [error, httpStatus, code] of refusals) {
        served.service.answers.set(method, () => {
          throw error;
        });
        const { status, headers, body: answer } = await served.post(path(step), body);
        expect(status).toBe(httpStatus);
        expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(answer).toMatchObject({ status: false, code });
        if (httpStatus < 500) expect(answer.message).toBe(error.message);
        else expect(JSON.stringify(answer)).not.toContain('database down');
      }
    });

    it('takes only a small JSON object', async () => {
      const notJson = await served.post(path(step), undefined, { body: 'kind=selfie', contentType: 'text/plain' });
      expect(notJson.status).toBe(415);
      expect(notJson.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      const malformed = await served.post(path(step), undefined, { body: '{"kind":', contentType: 'application/json' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ code: 'MALFORMED_JSON' });
      const huge = await served.post(path(step), { ...body, padding: 'x'.repeat(4096) });
      expect(huge.status).toBe(413);
      expect(huge.body).toMatchObject({ code: 'BODY_TOO_LARGE' });
      const array = await served.post(path(step), [body]);
      expect(array.status).toBe(422);
      expect(array.body).toMatchObject({ errors: { '(body)': ['must be a JSON object'] } });
      expect(calls()).toHaveLength(0);
    });
  });

  it('leaves other paths to the rest of the listener', async () => {
    const { status, body } = await served.post(`/verify/${VERIFICATION_TOKEN}/approve`, {});
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    expect(calls()).toHaveLength(0);
  });
});
