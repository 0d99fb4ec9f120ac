import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli.js';
import { captureIo, fakeFetch, json, type Responder } from './testing/fake-fetch.js';

describe('corridor admin (in-process, fake admin API)', () => {
  let localDir: string;
  beforeEach(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'corridor-cli-'));
  });
  afterEach(() => rm(localDir, { recursive: true, force: true }));

  const run = async (args: string[], respond: Responder = () => json(200, { ok: true })) => {
    const fake = fakeFetch(respond);
    const captured = captureIo(fake.fetch, {
      CORRIDOR_LOCAL: localDir,
      CORRIDOR_ADMIN_URL: 'http://admin.test:8081',
      ADMIN_TOKEN: 'env-token',
    });
    const code = await runCli(args, captured.io);
    return { code, requests: fake.requests, stdout: captured.stdout(), stderr: captured.stderr() };
  };
  const bodyOf = (body: string | undefined): unknown => (body === undefined ? undefined : JSON.parse(body));

  describe('option parsing errors exit 1 before any request', () => {
    it.each([
      [['--rate-limits', '12'], /argument '12' is invalid\. expected per_minute\/per_hour/],
      [['--rate-limits', '120/abc'], /per_hour "abc" is not a positive whole number/],
      [['--api-enabled', 'yes'], /argument 'yes' is invalid\. expected true or false/],
      [[], /nothing to change/],
    ])('businesses update B %j', async (options, message) => {
      const result = await run(['admin', 'businesses', 'update', 'B', ...options]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.requests).toHaveLength(0);
    });

    it('a missing --name', async () => {
      const result = await run(['admin', 'businesses', 'create']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/required option '--name <name>' not specified/);
    });
  });

  it('businesses update sends the PATCH body the admin API expects', async () => {
    const result = await run([
      'admin',
      'businesses',
      'update',
      'b-1',
      '--rate-limits',
      '100000/6000000',
      '--ip-allowlist',
      '',
      '--api-enabled',
      'false',
    ]);
    expect(result.code).toBe(0);
    const [request] = result.requests;
    expect(request).toMatchObject({ method: 'PATCH', url: 'http://admin.test:8081/admin/businesses/b-1' });
    expect(request?.headers.authorization).toBe('Bearer env-token');
    expect(bodyOf(request?.body)).toEqual({
      api_enabled: false,
      ip_allowlist: [],
      rate_limits: { per_minute: 100000, per_hour: 6000000 },
    });
    expect(JSON.parse(result.stdout)).toEqual({ ok: true });
  });

  it.each([
    [[], { name: 'Acme' }],
    [['--no-api-enabled'], { name: 'Acme', api_enabled: false }],
    [['--api-enabled', '--kyb-minimal-allowed'], { name: 'Acme', api_enabled: true, kyb_minimal_allowed: true }],
  ])('businesses create --name Acme %j sends only what was given', async (flags, body) => {
    const result = await run(['admin', 'businesses', 'create', '--name', 'Acme', ...flags], () => json(201, {}));
    expect(result.code).toBe(0);
    expect(bodyOf(result.requests[0]?.body)).toEqual(body);
  });

  it('credentials create collects repeated --bundle and --scope', async () => {
    const result = await run(
      [
        'admin',
        'credentials',
        'create',
        'b-1',
        '--bundle',
        'read-only',
        '--bundle',
        'payouts',
        '--scope',
        'swap:create',
      ],
      () => json(201, {}),
    );
    expect(result.requests[0]?.url).toBe('http://admin.test:8081/admin/businesses/b-1/credentials');
    expect(bodyOf(result.requests[0]?.body)).toEqual({ bundles: ['read-only', 'payouts'], scopes: ['swap:create'] });
  });

  it('credentials rotate without scopes keeps them (empty body); revoke is a DELETE', async () => {
    const rotate = await run(['admin', 'credentials', 'rotate', 'ci_test_1']);
    expect(rotate.requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://admin.test:8081/admin/credentials/ci_test_1/rotate',
    });
    expect(bodyOf(rotate.requests[0]?.body)).toEqual({});
    const revoke = await run(['admin', 'credentials', 'revoke', 'ci_test_1']);
    expect(revoke.requests[0]).toMatchObject({ method: 'DELETE', body: undefined });
  });

  describe('customers (the review of decision 0008)', () => {
    const ADMIN = 'http://admin.test:8081/admin/customers';

    it('queue lists PROCESSING customers by default', async () => {
      const result = await run(['admin', 'customers', 'queue'], () => json(200, { data: [], meta: {} }));
      expect(result.code).toBe(0);
      expect(result.requests).toMatchObject([{ method: 'GET', url: `${ADMIN}?verification_status=PROCESSING` }]);
      expect(JSON.parse(result.stdout)).toEqual({ data: [], meta: {} });
    });

    it('queue --status all --business B --page 2 filters by business only, on page 2', async () => {
      const result = await run(['admin', 'customers', 'queue', '--status', 'all', '--business', 'b-1', '--page', '2']);
      expect(result.requests[0]?.url).toBe(`${ADMIN}?business_id=b-1&page=2`);
      const rejected = await run(['admin', 'customers', 'queue', '--status', 'REJECTED']);
      expect(rejected.requests[0]?.url).toBe(`${ADMIN}?verification_status=REJECTED`);
    });

    it('queue --page 0 exits 1 before any request', async () => {
      const result = await run(['admin', 'customers', 'queue', '--page', '0']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/argument '0' is invalid\. expected a whole number ≥ 1/);
      expect(result.requests).toHaveLength(0);
    });

    it('show and audit read one customer of any business', async () => {
      const show = await run(['admin', 'customers', 'show', 'c-1']);
      expect(show.requests).toMatchObject([{ method: 'GET', url: `${ADMIN}/c-1` }]);
      const audit = await run(['admin', 'customers', 'audit', 'c-1'], () => json(200, { data: [] }));
      expect(audit.requests).toMatchObject([{ method: 'GET', url: `${ADMIN}/c-1/audit` }]);
      expect(JSON.parse(audit.stdout)).toEqual({ data: [] });
    });

    it('review --verdict VERIFIED --approve-all approves every PROCESSING owner and document, then the verdict, in one review', async () => {
      const customer = {
        id: 'c-1',
        owners: [
          { id: 'o-1', status: 'PROCESSING' },
          { id: 'o-2', status: 'APPROVED' },
          { id: 'o-3', status: 'PROCESSING' },
        ],
        documents: [
          { id: 'd-1', status: 'PROCESSING' },
          { id: 'd-2', status: 'APPROVED' },
        ],
      };
      const result = await run(
        ['admin', 'customers', 'review', 'c-1', '--verdict', 'VERIFIED', '--approve-all'],
        (request) => json(200, request.method === 'GET' ? customer : { ...customer, verification_status: 'VERIFIED' }),
      );
      expect(result.code).toBe(0);
      expect(result.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        `GET ${ADMIN}/c-1`,
        `POST ${ADMIN}/c-1/review`,
      ]);
      expect(bodyOf(result.requests[1]?.body)).toEqual({
        owners: [
          { id: 'o-1', status: 'APPROVED' },
          { id: 'o-3', status: 'APPROVED' },
        ],
        documents: [{ id: 'd-1', status: 'APPROVED' }],
        verdict: 'VERIFIED',
      });
      expect(JSON.parse(result.stdout)).toMatchObject({ verification_status: 'VERIFIED' });
    });

    it('review --verdict REJECTED sends each rejection with its comments, without reading the customer', async () => {
      const result = await run([
        'admin',
        'customers',
        'review',
        'c-1',
        '--verdict',
        'REJECTED',
        '--reject-owner',
        'o-1=the ID photo is blurred',
        '--reject-owner',
        'o-1=the ID has expired',
        '--reject-document',
        'd-1=not a formation document',
      ]);
      expect(result.requests).toHaveLength(1);
      expect(bodyOf(result.requests[0]?.body)).toEqual({
        owners: [{ id: 'o-1', status: 'REJECTED', admin_comments: ['the ID photo is blurred', 'the ID has expired'] }],
        documents: [{ id: 'd-1', status: 'REJECTED', admin_comments: ['not a formation document'] }],
        verdict: 'REJECTED',
      });
    });

    it('review --approve-all leaves a rejected owner rejected', async () => {
      const customer = {
        owners: [
          { id: 'o-1', status: 'PROCESSING' },
          { id: 'o-2', status: 'PROCESSING' },
        ],
        documents: [],
      };
      const result = await run(
        [
          'admin',
          'customers',
          'review',
          'c-1',
          '--verdict',
          'REJECTED',
          '--approve-all',
          '--reject-owner',
          'o-2=blurred',
        ],
        (request) => json(200, request.method === 'GET' ? customer : {}),
      );
      expect(bodyOf(result.requests[1]?.body)).toEqual({
        owners: [
          { id: 'o-1', status: 'APPROVED' },
          { id: 'o-2', status: 'REJECTED', admin_comments: ['blurred'] },
        ],
        verdict: 'REJECTED',
      });
    });

    it.each([
      [['--verdict', 'APPROVED'], /argument 'APPROVED' is invalid\. expected VERIFIED or REJECTED/],
      [[], /required option '--verdict <VERIFIED\|REJECTED>' not specified/],
      [['--verdict', 'REJECTED', '--reject-owner', 'o-1'], /expected <id>=<comment>/],
      [['--verdict', 'REJECTED', '--reject-document', 'd-1='], /expected <id>=<comment>/],
    ])('review c-1 %j exits 1 before any request', async (options, message) => {
      const result = await run(['admin', 'customers', 'review', 'c-1', ...options]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.requests).toHaveLength(0);
    });

    it("review prints the API's refusal and exits 1", async () => {
      const result = await run(['admin', 'customers', 'review', 'c-1', '--verdict', 'VERIFIED'], () =>
        json(422, {
          status: false,
          message: 'owners o-1 is not APPROVED',
          code: 'REVIEW_INCOMPLETE',
          errors: { 'owners.o-1': ['is PROCESSING, not APPROVED'] },
        }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'corridor: owners o-1 is not APPROVED (422 REVIEW_INCOMPLETE)\n  owners.o-1: is PROCESSING, not APPROVED\n',
      );
    });
  });

  it('ids are one path segment, whatever they contain', async () => {
    const result = await run(['admin', 'businesses', 'get', '../credentials/x']);
    expect(result.requests[0]?.url).toBe('http://admin.test:8081/admin/businesses/..%2Fcredentials%2Fx');
  });

  it('flags win over the environment, also after the subcommand', async () => {
    const result = await run([
      'admin',
      'businesses',
      'get',
      'b-1',
      '--admin-url',
      'http://other:9',
      '--admin-token',
      't',
    ]);
    expect(result.requests[0]?.url).toBe('http://other:9/admin/businesses/b-1');
    expect(result.requests[0]?.headers.authorization).toBe('Bearer t');
  });

  it("an API error prints the API's message (and each invalid field) and exits 1", async () => {
    const result = await run(['admin', 'businesses', 'update', 'b-1', '--rate-limits', '10/5'], () =>
      json(422, {
        status: false,
        message: 'rate_limits.per_hour must be at least per_minute (10) and at most 6000000',
        code: 'VALIDATION_FAILED',
        errors: { 'rate_limits.per_hour': ['must be at least per_minute (10) and at most 6000000'] },
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'corridor: rate_limits.per_hour must be at least per_minute (10) and at most 6000000 (422 VALIDATION_FAILED)\n' +
        '  rate_limits.per_hour: must be at least per_minute (10) and at most 6000000\n',
    );
  });

  it('an unreachable admin API is named, with the reason', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const result = await run(['admin', 'credentials', 'get', 'ci_1'], () => Promise.reject(refused));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('corridor: cannot reach http://admin.test:8081/admin/credentials/ci_1: ECONNREFUSED\n');
  });
});
