import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { KycRequirement, KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { DomainError, notFound, Status } from '@corridor/grpc';
import { kycCapture, kycSessionView, SESSION_ID, VERIFICATION_TOKEN } from '../../test/verify/verification.fixtures.js';
import { serveVerificationPage } from '../../test/verify/verification-page.fixture.js';
import { VERIFICATION_PAGE_SCRIPT } from './verification-page-script.js';
import { returnUrlOf } from './verification-view.js';

/** The person's verification page, against a fake KycSessionService on loopback. */
describe('the verification page /verify/{token}', () => {
  let served: Awaited<ReturnType<typeof serveVerificationPage>>;
  const page = `/verify/${VERIFICATION_TOKEN}`;
  const answer = (view: ReturnType<typeof kycSessionView>) =>
    served.service.answers.set('getVerificationPage', () => ({ view }));
  const mainOf = (html: string) => /<main[^>]*>/.exec(html)?.[0] ?? '';
  const service = () => served.service;

  beforeAll(async () => {
    served = await serveVerificationPage('sandbox');
  });
  afterAll(() => served.stop());
  beforeEach(() => {
    served.service.calls.length = 0;
    served.service.answers.clear();
  });

  it('shows who asks and a document and a selfie to give for a face match, with Submit disabled until both are given', async () => {
    const { status, headers, text: html } = await served.open(page);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<strong>Acme Stores Ltd</strong> asks you to confirm who you are.');
    expect(html).toContain('This link works until 25 Nov 2026, 09:00 UTC.');
    for (const id of ['document-file', 'document-standin', 'selfie-file', 'selfie-standin']) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('>Use a stand-in document</button>');
    expect(html).toContain('>Take a stand-in selfie</button>');
    expect(html).toContain('<button type="button" id="submit" disabled>Submit</button>');
    expect(html).toContain('Still needed: your document and your selfie.</p>');
    expect(mainOf(html)).toBe(
      `<main data-base="/verify/${VERIFICATION_TOKEN}" data-status="PENDING" data-needed="document selfie" data-captured="">`,
    );
    expect(service().calls).toHaveLength(1);
    expect(service().calls[0]).toMatchObject({ method: 'getVerificationPage', request: { token: VERIFICATION_TOKEN } });
    // No business and no API token: the link's token alone names the session.
    expect(service().calls[0]?.caller).toMatchObject({ environment: 'sandbox', businessId: undefined });
    expect(service().calls[0]?.caller.requestId).toBe(headers.get('x-request-id'));
  });

  it('runs only its own script file and stylesheet, lets the script reach storage, and keeps the token out of Referers and caches', async () => {
    const { headers, text: html } = await served.open(page);
    const policy = headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self' http://127.0.0.1:9000");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
    expect(policy).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    // The one script is a file; no inline script and no inline handler.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/verify/assets/verify.js" defer>']);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['DOCUMENTS', [KycRequirement.DOCUMENTS], 'document'],
    ['SELFIE', [KycRequirement.SELFIE], 'selfie'],
    ['DOCUMENTS and SELFIE', [KycRequirement.DOCUMENTS, KycRequirement.SELFIE], 'document selfie'],
    ['FACE_MATCH and SELFIE', [KycRequirement.FACE_MATCH, KycRequirement.SELFIE], 'document selfie'],
  ])('asks for exactly what %s needs', async (_case, requirements, needed) => {
    answer(kycSessionView({ requirements }));
    const { text: html } = await served.open(page);
    expect(mainOf(html)).toContain(`data-needed="${needed}"`);
    expect(html.includes('id="document-file"')).toBe(needed.includes('document'));
    expect(html.includes('id="selfie-file"')).toBe(needed.includes('selfie'));
  });

  it('shows what is already given, and enables Submit once everything is', async () => {
    answer(kycSessionView({ captures: [kycCapture('document')] }));
    const partly = (await served.open(page)).text;
    expect(mainOf(partly)).toContain('data-captured="document"');
    expect(partly).toContain('<p class="state" id="document-state">Received</p>');
    expect(partly).toContain('<p class="state" id="selfie-state">Not given yet</p>');
    expect(partly).toContain('id="submit" disabled');
    expect(partly).toContain('Still needed: your selfie.');

    answer(kycSessionView({ captures: [kycCapture('selfie'), kycCapture('document')] }));
    const all = (await served.open(page)).text;
    expect(mainOf(all)).toContain('data-captured="document selfie"');
    expect(all).toContain('<button type="button" id="submit">Submit</button>');
    expect(all).toContain('Everything is ready: press Submit.');
  });

  it('offers stand-ins only in the sandbox', async () => {
    const production = await serveVerificationPage('production');
    try {
      const { text: html } = await production.open(page);
      expect(html).toContain('id="document-file"');
      expect(html).not.toContain('standin');
      expect(html).not.toContain('Sandbox');
      expect(production.service.calls[0]?.caller.environment).toBe('production');
    } finally {
      await production.stop();
    }
  });

  it('escapes every value customer-kyb sends', async () => {
    answer(kycSessionView({ businessName: '<script>alert("x")</script> & Sons', redirectUrl: undefined }));
    const { text: html } = await served.open(page);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('<strong>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons</strong>');
  });

  it.each([
    [KycSessionStatus.PROCESSING, 'PROCESSING', 'Thank you — we are checking your details'],
    [KycSessionStatus.COMPLETED, 'COMPLETED', 'Your verification is complete'],
    [KycSessionStatus.EXPIRED, 'EXPIRED', 'This verification link has expired'],
    [KycSessionStatus.CANCELLED, 'CANCELLED', 'This verification was cancelled'],
  ])(
    'a %s session shows where it stands, nothing to give, and the way back with its status',
    async (status, word, title) => {
      answer(kycSessionView({ status, captures: [kycCapture('document'), kycCapture('selfie')] }));
      const { status: code, text: html } = await served.open(page);
      expect(code).toBe(200);
      expect(html).toContain(`<h1>${title}</h1>`);
      expect(html).toContain(`<p id="status" role="status">${title}</p>`);
      expect(mainOf(html)).toContain(`data-status="${word}"`);
      expect(mainOf(html)).toContain('data-captured="document selfie"');
      expect(html).not.toContain('<input');
      expect(html).not.toContain('id="submit"');
      expect(html).not.toContain('<script');
      expect(html).toContain(
        `<a href="https://shop.example/kyc/done?user=42&amp;session_id=${SESSION_ID}&amp;status=${word}">Return to Acme Stores Ltd</a>`,
      );
    },
  );

  it('a session without redirect_url shows no way back', async () => {
    answer(kycSessionView({ status: KycSessionStatus.EXPIRED, redirectUrl: undefined }));
    const { text: html } = await served.open(page);
    expect(html).toContain('This verification link has expired');
    expect(html).not.toContain('<a ');
  });

  it.each([
    ['too short', VERIFICATION_TOKEN.slice(1)],
    ['too long', `${VERIFICATION_TOKEN}A`],
    ['not url-safe base64', `${VERIFICATION_TOKEN.slice(0, 40)}+/=`],
    ['with a dot', `${VERIFICATION_TOKEN.slice(0, 40)}.js`],
  ])('answers a token %s with the not-found page, without asking customer-kyb', async (_case, token) => {
    const { status, headers, text: html } = await served.open(`/verify/${encodeURIComponent(token)}`);
    expect(status).toBe(404);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('This verification link is not valid');
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(service().calls).toHaveLength(0);
  });

  it('answers a token customer-kyb does not know with the not-found page', async () => {
    service().answers.set('getVerificationPage', () => {
      throw notFound('VERIFICATION_NOT_FOUND', 'no verification has this link');
    });
    const { status, text: html } = await served.open(page);
    expect(status).toBe(404);
    expect(html).toContain('<h1>Verification not found</h1>');
  });

  it('answers a page, not JSON, when customer-kyb is unavailable (503) or fails (500)', async () => {
    service().answers.set('getVerificationPage', () => {
      throw new DomainError(Status.UNAVAILABLE, 'UPSTREAM_UNAVAILABLE', 'database down');
    });
    const unavailable = await served.open(page);
    expect(unavailable.status).toBe(503);
    expect(unavailable.text).toContain('Please try again');
    expect(unavailable.text).not.toContain('database down');
    service().answers.set('getVerificationPage', () => {
      throw new DomainError(Status.INTERNAL, 'INTERNAL', 'a defect');
    });
    const failed = await served.open(page);
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(failed.text).toContain('Something went wrong');
    expect(failed.text).not.toContain('a defect');
  });

  it('serves its script as a JavaScript file of this origin that parses', async () => {
    const { status, headers, text: script } = await served.open('/verify/assets/verify.js');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script).toBe(VERIFICATION_PAGE_SCRIPT);
    expect(() => new Script(script, { filename: 'verify.js' })).not.toThrow();
    // The flow the page runs: its three endpoints and the presigned PUT.
    for (const step of ["'/uploads'", "'/captures'", "'/submit'", 'upload.upload_url', 'window.location.assign']) {
      expect(script).toContain(step);
    }
    expect(service().calls).toHaveLength(0);
  });
});

describe('the way back from the verification page', () => {
  const view = (redirectUrl: string | undefined, status = KycSessionStatus.PROCESSING) =>
    kycSessionView({ redirectUrl, status });
  const outcome = `session_id=${SESSION_ID}&status=PROCESSING`;

  it('keeps the query and fragment redirect_url already has, and adds a query to one without', () => {
    expect(returnUrlOf(view('https://shop.example/r?a=1&b=x%20y#done'))).toBe(
      `https://shop.example/r?a=1&b=x%20y&${outcome}#done`,
    );
    expect(returnUrlOf(view('https://shop.example/thanks'))).toBe(`https://shop.example/thanks?${outcome}`);
    expect(returnUrlOf(view('https://shop.example/thanks?'))).toBe(`https://shop.example/thanks?${outcome}`);
    expect(returnUrlOf(view('https://shop.example/r', KycSessionStatus.PENDING))).toBe(
      `https://shop.example/r?session_id=${SESSION_ID}&status=PENDING`,
    );
  });

  it('sends the person back only to an https redirect_url', () => {
    expect(returnUrlOf(view('http://shop.example/r'))).toBeUndefined();
    expect(returnUrlOf(view('javascript:alert(1)'))).toBeUndefined();
    expect(returnUrlOf(view('not a url'))).toBeUndefined();
    expect(returnUrlOf(view(undefined))).toBeUndefined();
  });
});
