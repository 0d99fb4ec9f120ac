import { KycRequirement, KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { cancelKycSession, getKycSession } from './kyc-sessions.js';
import {
  BUSINESS_NAME,
  dateOf,
  FILE_MAX_BYTES,
  kycSessionSpecKit,
  PNG,
  refusalOf,
  SETTINGS,
} from '../../test/kyc-sessions/kyc-session-spec-kit.js';
import { getVerificationPage, MAX_CAPTURES, submitVerification } from './verification.js';

// The person's side of a session on its verification page (decision 0016): presigned uploads into
// the files bucket on S3Proxy, captures, submit; the token is their only credential.

const { DOCUMENTS, SELFIE, FACE_MATCH } = KycRequirement;

describe('customer-kyb: the verification page of a KYC session (real PostgreSQL and S3Proxy)', () => {
  const kit = kycSessionSpecKit('kyc_verification');
  const context = () => kit.contextIn('sandbox');

  beforeAll(() => kit.start());
  afterAll(() => kit.stop());

  const page = (token: string) => getVerificationPage(kit.em(), context(), token);
  const submit = (token: string) => submitVerification(kit.em(), context(), token);
  const validationFailed = (fieldErrors: Record<string, unknown>) => ({
    status: Status.INVALID_ARGUMENT,
    reason: 'VALIDATION_FAILED',
    fieldErrors,
  });
  const notPending = { status: Status.FAILED_PRECONDITION, reason: 'VERIFICATION_NOT_PENDING', fieldErrors: undefined };
  const unknownToken = { status: Status.NOT_FOUND, reason: 'VERIFICATION_NOT_FOUND', fieldErrors: undefined };
  const fileIdRefused = validationFailed({ file_id: [expect.any(String)] });

  it('a face match takes a document and a selfie: upload issued, bytes PUT to the presigned URL, captured, submitted → PROCESSING', async () => {
    const businessId = randomUUID();
    const session = await kit.openSession(businessId, {
      requirements: [FACE_MATCH],
      redirectUrl: 'https://platform.example/kyc/done',
    });
    const token = session.verificationToken;
    expect(await page(token)).toMatchObject({
      sessionId: session.id,
      businessName: BUSINESS_NAME,
      requirements: [FACE_MATCH],
      status: KycSessionStatus.PENDING,
      captures: [],
      expiresAt: session.expiresAt,
      redirectUrl: 'https://platform.example/kyc/done',
    });

    const upload = await kit.requestUpload(token, 'document');
    expect(upload).toMatchObject({
      fileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'PUT',
      headers: { 'content-type': 'image/png', 'content-length': String(PNG.length) },
      maxSizeBytes: BigInt(FILE_MAX_BYTES),
    });
    // The object sits under the business and the session in the files bucket.
    expect(decodeURIComponent(new URL(upload.uploadUrl).pathname)).toMatch(
      new RegExp(`/${businessId}/kyc-sessions/${session.id}/${upload.fileId}$`),
    );
    expect(await kit.putBytes(upload)).toBe(200);
    kit.clock.advance(1_000);
    const withDocument = await kit.addCapture(token, upload.fileId);
    expect(withDocument.captures).toEqual([
      expect.objectContaining({ kind: 'document', fileId: upload.fileId, contentType: 'image/png' }),
    ]);
    expect(withDocument.captures[0]?.sizeBytes).toBe(BigInt(PNG.length));
    expect(dateOf(withDocument.captures[0]?.capturedAt)).toEqual(kit.clock.now());

    const withSelfie = await kit.giveFile(token, 'selfie');
    expect(withSelfie.captures.map((capture) => capture.kind)).toEqual(['document', 'selfie']);
    kit.clock.advance(1_000);
    const submitted = await submit(token);
    expect(submitted.status).toBe(KycSessionStatus.PROCESSING);
    const read = await getKycSession(kit.em(), context(), businessId, session.id);
    expect(read.status).toBe(KycSessionStatus.PROCESSING);
    expect(dateOf(read.submittedAt)).toEqual(kit.clock.now());
    expect(read.captures).toEqual(withSelfie.captures);
    // Submitting is no outcome: the platform hears of the verdict or the expiry only.
    expect(await kit.eventCases(session.id)).toEqual([]);
  });

  it('a capture before the bytes are uploaded is a 422 naming file_id; once PUT, the same file_id is captured once', async () => {
    const session = await kit.openSession(randomUUID(), { requirements: [DOCUMENTS] });
    const token = session.verificationToken;
    const upload = await kit.requestUpload(token, 'document');
    expect(await refusalOf(kit.addCapture(token, upload.fileId))).toEqual(fileIdRefused);
    expect(await refusalOf(submit(token))).toEqual(validationFailed({ captures: ['a document is required'] }));
    expect(await kit.putBytes(upload)).toBe(200);
    expect((await kit.addCapture(token, upload.fileId)).captures).toHaveLength(1);
    expect((await kit.addCapture(token, upload.fileId)).captures).toHaveLength(1);
  });

  it('a file_id that was not issued for this session is a 422 naming file_id', async () => {
    const other = await kit.openSession(randomUUID());
    const theirs = await kit.requestUpload(other.verificationToken, 'document');
    expect(await kit.putBytes(theirs)).toBe(200);
    const token = (await kit.openSession(randomUUID())).verificationToken;
    for (const fileId of [theirs.fileId, randomUUID(), 'not-a-uuid']) {
      expect(await refusalOf(kit.addCapture(token, fileId))).toEqual(fileIdRefused);
    }
    expect((await page(token)).captures).toEqual([]);
  });

  it('a kind the session does not ask for is a 422 naming kind (documents only: no selfie; selfie only: no document)', async () => {
    const documentsOnly = (await kit.openSession(randomUUID(), { requirements: [DOCUMENTS] })).verificationToken;
    expect(await refusalOf(kit.requestUpload(documentsOnly, 'selfie'))).toEqual(
      validationFailed({ kind: ['is not asked for: this verification needs document'] }),
    );
    const selfieOnly = (await kit.openSession(randomUUID(), { requirements: [SELFIE] })).verificationToken;
    expect(await refusalOf(kit.requestUpload(selfieOnly, 'document'))).toEqual(
      validationFailed({ kind: [expect.any(String)] }),
    );
    expect(await kit.requestUpload(selfieOnly, 'selfie')).toMatchObject({ method: 'PUT' });
  });

  it('each invalid field of an upload request is a 422 naming it: kind, content_type, content_length (1..FILE_MAX_BYTES)', async () => {
    const token = (await kit.openSession(randomUUID(), { requirements: [FACE_MATCH] })).verificationToken;
    const cases: [field: string, request: Parameters<typeof kit.requestUpload>][] = [
      ['kind', [token, 'passport']],
      ['content_type', [token, 'document', 'image/gif']],
      ['content_length', [token, 'document', 'image/png', 0]],
      ['content_length', [token, 'document', 'application/pdf', FILE_MAX_BYTES + 1]],
    ];
    for (const [field, request] of cases) {
      expect(await refusalOf(kit.requestUpload(...request))).toEqual(
        validationFailed({ [field]: [expect.any(String)] }),
      );
    }
    for (const contentType of ['application/pdf', 'image/jpeg', 'image/png']) {
      const upload = await kit.requestUpload(token, 'document', contentType, FILE_MAX_BYTES);
      expect(upload.headers).toEqual({ 'content-type': contentType, 'content-length': String(FILE_MAX_BYTES) });
    }
  });

  it(`a session takes at most ${MAX_CAPTURES} files (422 kind after that)`, async () => {
    const token = (await kit.openSession(randomUUID(), { requirements: [FACE_MATCH] })).verificationToken;
    for (let i = 0; i < MAX_CAPTURES; i += 1) await kit.requestUpload(token, i % 2 === 0 ? 'document' : 'selfie');
    expect(await refusalOf(kit.requestUpload(token, 'document'))).toEqual(
      validationFailed({ kind: [`at most ${MAX_CAPTURES} files per verification`] }),
    );
  });

  it('a submit missing a kind the requirements need is a 422 naming captures, and the session stays PENDING', async () => {
    const businessId = randomUUID();
    const session = await kit.openSession(businessId, { requirements: [FACE_MATCH] });
    const token = session.verificationToken;
    expect(await refusalOf(submit(token))).toEqual(
      validationFailed({ captures: ['a document is required', 'a selfie is required'] }),
    );
    await kit.giveFile(token, 'document');
    // Issued but never uploaded: not a capture.
    await kit.requestUpload(token, 'selfie');
    expect(await refusalOf(submit(token))).toEqual(validationFailed({ captures: ['a selfie is required'] }));
    expect((await page(token)).status).toBe(KycSessionStatus.PENDING);
    expect((await getKycSession(kit.em(), context(), businessId, session.id)).submittedAt).toBeUndefined();
  });

  it('after submit the page takes nothing more: upload, capture and submit are 400 VERIFICATION_NOT_PENDING', async () => {
    const session = await kit.openSession(randomUUID(), { requirements: [FACE_MATCH] });
    const token = session.verificationToken;
    await kit.giveFile(token, 'document');
    const spare = await kit.requestUpload(token, 'selfie');
    expect(await kit.putBytes(spare)).toBe(200);
    await kit.giveFile(token, 'selfie');
    await submit(token);
    expect(await refusalOf(kit.requestUpload(token, 'selfie'))).toEqual(notPending);
    expect(await refusalOf(kit.addCapture(token, spare.fileId))).toEqual(notPending);
    expect(await refusalOf(submit(token))).toEqual(notPending);
    const view = await page(token);
    expect(view.status).toBe(KycSessionStatus.PROCESSING);
    expect(view.captures).toHaveLength(2);
  });

  it('a cancelled or expired session’s page takes nothing (400); past its deadline the page reads EXPIRED with one expired event', async () => {
    const businessId = randomUUID();
    const cancelled = await kit.openSession(businessId);
    await cancelKycSession(kit.em(), context(), businessId, cancelled.id);
    expect((await page(cancelled.verificationToken)).status).toBe(KycSessionStatus.CANCELLED);
    expect(await refusalOf(kit.requestUpload(cancelled.verificationToken, 'document'))).toEqual(notPending);

    const expiring = await kit.openSession(businessId);
    kit.clock.advance(SETTINGS.ttlMs - 1);
    expect((await page(expiring.verificationToken)).status).toBe(KycSessionStatus.PENDING);
    kit.clock.advance(1);
    expect((await page(expiring.verificationToken)).status).toBe(KycSessionStatus.EXPIRED);
    expect(await refusalOf(kit.requestUpload(expiring.verificationToken, 'document'))).toEqual(notPending);
    expect(await refusalOf(submit(expiring.verificationToken))).toEqual(notPending);
    expect(await kit.eventCases(expiring.id)).toEqual(['kycSessionExpired']);
  });

  it('an unknown token is 404 VERIFICATION_NOT_FOUND for the page, an upload, a capture and a submit', async () => {
    const { verificationToken } = await kit.openSession(randomUUID());
    const unknown = `${verificationToken.slice(0, 42)}${verificationToken.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [unknown, '', 'x'.repeat(200)]) {
      expect(await refusalOf(page(token))).toEqual(unknownToken);
      expect(await refusalOf(kit.requestUpload(token, 'document'))).toEqual(unknownToken);
      expect(await refusalOf(kit.addCapture(token, randomUUID()))).toEqual(unknownToken);
      expect(await refusalOf(submit(token))).toEqual(unknownToken);
    }
  });
});
