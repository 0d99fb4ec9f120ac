import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTestCertificates, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import puppeteer, { type Browser } from 'puppeteer-core';
import { trustedKeyFlag } from '../support/collections.js';
import { jsonOf, unique } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import { ReceivingBusiness, expectedSignature, receiverEnv, sleep } from '../support/receiving-business.js';

/** Sessions expire 20 s after creation here (24 h by default), swept every 200 ms; magic verdicts after 1 s. */
const TTL_MS = 20_000;
const KYC_TIMINGS = {
  KYC_SESSION_TTL_MS: String(TTL_MS),
  KYC_SWEEP_INTERVAL_MS: '200',
  SANDBOX_KYC_VERDICT_MS: '1000',
};
/** The screenshots of the page walk, kept after the run. */
const SCREENSHOTS = join(process.cwd(), '.local', 'test-output', 'kyc-sessions');

interface KycSessionJson {
  id: string;
  customer_reference: string;
  customer_id: string | null;
  requirements: string[];
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'EXPIRED' | 'CANCELLED';
  result: 'APPROVED' | 'REJECTED' | null;
  rejection_reason: string | null;
  rejection_type: 'FINAL' | 'RETRYABLE' | null;
  verification_url: string | null;
  redirect_url: string | null;
  captures: { kind: string; content_type: string; size_bytes: number; captured_at: string }[];
  expires_at: string;
  completed_at: string | null;
  expired_at: string | null;
}

/** Seed 6.2's `data` fields, exactly. */
const COMPLETED_FIELDS = [
  'session_id',
  'business_id',
  'customer_reference',
  'requirements',
  'result',
  'rejection_reason',
  'rejection_type',
  'completed_at',
];
const EXPIRED_FIELDS = ['session_id', 'business_id', 'customer_reference', 'expired_at'];

function chromiumPath(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no chromium on PATH: `apt-get install chromium` (deploy/local/test.sh does it for npm test)');
  }
}

/**
 * Issue 13 end to end: a platform creates merchant KYC sessions, the person walks the verification
 * page in headless Chromium, the back office gives the verdict, and kyc_url hears
 * merchant.kyc.session.completed or .expired, signed as seed 6.4 says; cancelled sessions and late
 * verdicts send nothing, and a business without kyc_url reads the result instead.
 */
describe('merchant KYC sessions through the gateway (issue 13)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let browser: Browser;
  /** Registered with kyc_url; `quiet` registered without one. */
  let owner: ReceivingBusiness;
  let quiet: ReceivingBusiness;

  const create = (business: ReceivingBusiness, body: Record<string, unknown>) =>
    platform.api('/api/external/kyc-session', business.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const created = async (business: ReceivingBusiness, body: Record<string, unknown>) =>
    (await jsonOf<{ data: KycSessionJson }>(await create(business, body), 201, 'create kyc session')).data;
  const read = async (business: ReceivingBusiness, id: string) =>
    (
      await jsonOf<{ data: KycSessionJson }>(
        await platform.api(`/api/external/kyc-session/${id}`, business.token),
        200,
        'read kyc session',
      )
    ).data;
  const verdict = (id: string, body: Record<string, unknown>) =>
    platform.admin(`/admin/kyc-sessions/${id}/result`, { method: 'POST', body: JSON.stringify(body) });
  /** The kyc_url webhooks about a session, once `count` of them have arrived. */
  const kycHooks = (business: ReceivingBusiness, sessionId: string, count = 1) =>
    business.receiver.waitFor(
      (request) => (request.json as { data?: { session_id?: string } } | undefined)?.data?.session_id === sessionId,
      count,
    );
  const hooksAbout = (business: ReceivingBusiness, sessionId: string) =>
    business.receiver.requests.filter(
      (request) => (request.json as { data?: { session_id?: string } } | undefined)?.data?.session_id === sessionId,
    );

  /** Seed 6.4: the headers, a signature over `<ts>.<raw body>`, and exactly `event` and `data`. */
  function expectSeedWebhook(business: ReceivingBusiness, hook: ReceivedWebhook, event: string, fields: string[]) {
    expect({ path: hook.path, verified: hook.verified, error: hook.verificationError }).toEqual({
      path: '/kyc',
      verified: true,
      error: undefined,
    });
    expect(hook.headers['content-type']).toMatch(/^application\/json/);
    expect(hook.headers['user-agent']).toMatch(/corridor/i);
    expect(Math.abs(Number(hook.headers['x-corridor-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(hook.headers['x-corridor-signature']).toBe(expectedSignature(business.secret, hook));
    const body = hook.json as { event: string; data: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['event', 'data']);
    expect(body.event).toBe(event);
    expect(Object.keys(body.data)).toEqual(fields);
    return body.data;
  }

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
      customerKybEnv: KYC_TIMINGS,
    });
    await platform.start();
    [owner, quiet] = await Promise.all([
      ReceivingBusiness.create(platform, certificates),
      ReceivingBusiness.create(platform, certificates, { kycUrl: false }),
    ]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', trustedKeyFlag(certificates)],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([owner?.stop(), quiet?.stop()]);
    await platform?.stop();
  });

  it('seed 3.4: a session is created PENDING with its verification_url and deadline; bad input is 422 naming the field', async () => {
    const before = Date.now();
    const session = await created(owner, {
      customer_reference: `merchant-${unique()}`,
      requirements: ['DOCUMENTS', 'SELFIE', 'FACE_MATCH'],
    });
    expect(session).toMatchObject({
      status: 'PENDING',
      result: null,
      rejection_reason: null,
      rejection_type: null,
      requirements: ['DOCUMENTS', 'SELFIE', 'FACE_MATCH'],
      verification_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/verify\/[A-Za-z0-9_-]{43}$/),
      captures: [],
    });
    expect(Date.parse(session.expires_at) - before).toBeGreaterThan(TTL_MS - 5_000);
    expect(await read(owner, session.id)).toEqual(session);
    const refused = await expectError(await create(owner, { customer_reference: 'x', requirements: ['RETINA'] }), 422);
    expect(Object.keys(refused.errors as object)).toEqual(['requirements.0']);
    await expectError(await create(owner, { customer_reference: '', requirements: [] }), 422);
  });

  it('seed 6.2, 6.4: the page walked in Chromium, the admin verdict, then merchant.kyc.session.completed signed to kyc_url with exactly the seed fields', async () => {
    const site = owner.receiver.url('/kyc-done?step=2');
    const session = await created(owner, {
      customer_reference: `merchant-${unique()}`,
      requirements: ['DOCUMENTS', 'SELFIE', 'FACE_MATCH'],
      redirect_url: site,
    });
    const page = await browser.newPage();
    try {
      const opened = await page.goto(session.verification_url ?? '', { waitUntil: 'load' });
      expect(opened?.status()).toBe(200);
      await page.screenshot({ path: join(SCREENSHOTS, '1-opened.png') });
      await page.click('#document-standin');
      await page.waitForSelector('main[data-captured~="document"]', { timeout: 15_000 });
      await page.click('#selfie-standin');
      await page.waitForSelector('main[data-captured~="selfie"]', { timeout: 15_000 });
      await page.screenshot({ path: join(SCREENSHOTS, '2-captured.png') });
      await Promise.all([page.waitForNavigation({ waitUntil: 'load', timeout: 15_000 }), page.click('#submit')]);
      const landed = new URL(page.url());
      expect(landed.pathname).toBe('/kyc-done');
      expect(Object.fromEntries(landed.searchParams)).toEqual({
        step: '2',
        session_id: session.id,
        status: 'PROCESSING',
      });
      await page.screenshot({ path: join(SCREENSHOTS, '3-returned.png') });
      console.log(`kyc-sessions: screenshots of the page walk in ${SCREENSHOTS}`);
    } finally {
      await page.close();
    }
    const submitted = await read(owner, session.id);
    expect(submitted.status).toBe('PROCESSING');
    expect(submitted.captures.map((capture) => capture.kind).sort()).toEqual(['document', 'selfie']);
    expect(submitted.verification_url).toBeNull();

    const answered = await verdict(session.id, { result: 'APPROVED' });
    expect(answered.status).toBe(200);
    const [hook] = await kycHooks(owner, session.id);
    if (!hook) throw new Error('no webhook');
    const data = expectSeedWebhook(owner, hook, 'merchant.kyc.session.completed', COMPLETED_FIELDS);
    expect(data).toEqual({
      session_id: session.id,
      business_id: owner.businessId,
      customer_reference: session.customer_reference,
      requirements: ['DOCUMENTS', 'SELFIE', 'FACE_MATCH'],
      result: 'APPROVED',
      rejection_reason: null,
      rejection_type: null,
      completed_at: (await read(owner, session.id)).completed_at,
    });

    // seed 3.4: a verdict after the session is final changes nothing and sends nothing.
    await expectError(
      await verdict(session.id, { result: 'REJECTED', rejection_type: 'FINAL', rejection_reason: 'x' }),
      409,
      {
        code: 'KYC_SESSION_FINAL',
      },
    );
    await sleep(1_500);
    expect(hooksAbout(owner, session.id)).toHaveLength(1);
    expect(await read(owner, session.id)).toMatchObject({ status: 'COMPLETED', result: 'APPROVED' });
  });

  it('seed 3.4: a RETRYABLE rejection lets the reference start again; a FINAL one is 422 for it', async () => {
    const reference = `merchant-${unique()}`;
    const first = await created(owner, { customer_reference: reference, requirements: ['DOCUMENTS'] });
    expect(
      (await verdict(first.id, { result: 'REJECTED', rejection_type: 'RETRYABLE', rejection_reason: 'Blurred photo' }))
        .status,
    ).toBe(200);
    const [retryable] = await kycHooks(owner, first.id);
    expect((retryable?.json as { data: Record<string, unknown> }).data).toMatchObject({
      result: 'REJECTED',
      rejection_type: 'RETRYABLE',
      rejection_reason: 'Blurred photo',
    });
    const second = await created(owner, { customer_reference: reference, requirements: ['DOCUMENTS'] });
    expect(
      (
        await verdict(second.id, {
          result: 'REJECTED',
          rejection_type: 'FINAL',
          rejection_reason: 'Not the same person',
        })
      ).status,
    ).toBe(200);
    await expectError(await create(owner, { customer_reference: reference, requirements: ['DOCUMENTS'] }), 422, {
      code: 'KYC_REFERENCE_REJECTED',
    });
  });

  it('seed 3.4: a cancelled session sends no webhook, and a verdict on it is 409', async () => {
    const session = await created(owner, { customer_reference: `merchant-${unique()}`, requirements: ['SELFIE'] });
    const cancelled = await platform.api(`/api/external/kyc-session/${session.id}/cancel`, owner.token, {
      method: 'POST',
    });
    expect(((await cancelled.json()) as { data: KycSessionJson }).data.status).toBe('CANCELLED');
    await expectError(await verdict(session.id, { result: 'APPROVED' }), 409, { code: 'KYC_SESSION_FINAL' });
    // A later session's webhook has come and gone: the cancelled one made none.
    const marker = await created(owner, {
      customer_reference: `marker-${unique()}_approve`,
      requirements: ['DOCUMENTS'],
    });
    await kycHooks(owner, marker.id);
    await sleep(1_000);
    expect(hooksAbout(owner, session.id)).toEqual([]);
  });

  it('seed 6.2: without kyc_url the result is recorded, not delivered, and read from the session; a kyc_url added later delivers later sessions (seed 4.3)', async () => {
    const session = await created(quiet, {
      customer_reference: `merchant-${unique()}_approve`,
      requirements: ['DOCUMENTS'],
    });
    const deadline = Date.now() + 15_000;
    while ((await read(quiet, session.id)).status !== 'COMPLETED' && Date.now() < deadline) await sleep(200);
    expect(await read(quiet, session.id)).toMatchObject({ status: 'COMPLETED', result: 'APPROVED' });
    await sleep(1_500);
    expect(hooksAbout(quiet, session.id)).toEqual([]);

    await platform.webhooks.update(quiet.token, quiet.webhook.id, quiet.urls({ kycUrl: true }));
    const later = await created(quiet, {
      customer_reference: `merchant-${unique()}_reject_final`,
      requirements: ['SELFIE'],
    });
    const [hook] = await kycHooks(quiet, later.id);
    if (!hook) throw new Error('no webhook');
    expect(expectSeedWebhook(quiet, hook, 'merchant.kyc.session.completed', COMPLETED_FIELDS)).toMatchObject({
      result: 'REJECTED',
      rejection_type: 'FINAL',
      rejection_reason: expect.any(String),
    });
  });

  it(
    'seed 3.4, 6.2: a session left alone expires at its deadline with merchant.kyc.session.expired',
    async () => {
      const session = await created(owner, { customer_reference: `merchant-${unique()}`, requirements: ['DOCUMENTS'] });
      const [hook] = await owner.receiver.waitFor(
        (request) => (request.json as { data?: { session_id?: string } } | undefined)?.data?.session_id === session.id,
        1,
        TTL_MS + 15_000,
      );
      if (!hook) throw new Error('no webhook');
      const data = expectSeedWebhook(owner, hook, 'merchant.kyc.session.expired', EXPIRED_FIELDS);
      const expired = await read(owner, session.id);
      expect(expired.status).toBe('EXPIRED');
      expect(data).toEqual({
        session_id: session.id,
        business_id: owner.businessId,
        customer_reference: session.customer_reference,
        expired_at: expired.expired_at,
      });
      await expectError(await verdict(session.id, { result: 'APPROVED' }), 409, { code: 'KYC_SESSION_FINAL' });
    },
    TTL_MS + 30_000,
  );

  it('decision 0010: the mock trigger sends the same body shape as a real merchant.kyc.session.completed', async () => {
    const answer = await platform.webhooks.mock(owner.token, { event: 'merchant.kyc.session.completed' });
    expect(answer).toMatchObject({ destination: 'kyc_url', status: 'succeeded' });
    const [mocked] = await owner.receiver.waitFor((request) => request.webhookId === answer.id, 1);
    if (!mocked) throw new Error('no mock webhook');
    expectSeedWebhook(owner, mocked, 'merchant.kyc.session.completed', COMPLETED_FIELDS);
  });
});
