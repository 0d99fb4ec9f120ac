import { freePort } from '@corridor/testing';
import { OpenApiContract } from '../support/openapi.js';
import { businessBody, jsonOf, ownerBody, type CustomerJson } from '../support/customers.js';
import { expectError, Platform, type Credentials } from '../support/platform.js';
import type { WebhookJson } from '../support/webhooks.js';

/**
 * Issue 18's corpus as a test: every operation of the served OpenAPI document (so a new route is
 * covered the day it is documented) × every kind of hostile input answers a 4xx in the error body of
 * DESIGN.md, never a 5xx, and the business's stored records read back unchanged afterwards.
 */

type Schema = Record<string, unknown>;
const NOWHERE = '00000000-0000-4000-8000-000000000000';
const RFC6749_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
];

interface Operation {
  method: string;
  path: string;
  requestBody?: Schema;
  /** The document's requestBody.required: a body the operation may go without. */
  bodyRequired: boolean;
  /** A success documented as `text/event-stream`: an answer that never ends by itself. */
  stream: boolean;
}

/** The documented media type of a stream's success, if the operation answers one. */
const STREAM_TYPE = 'text/event-stream';

/** A value of the schema (its required members, or its first one when none is required). */
function sampleOf(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return {};
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (variants?.[0]) return sampleOf(variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  if (type === 'object' || schema.properties) {
    const required = (schema.required as string[] | undefined) ?? Object.keys(properties).slice(0, 1);
    return Object.fromEntries(required.map((name) => [name, sampleOf(properties[name], depth + 1)]));
  }
  if (type === 'array') return [sampleOf(schema.items as Schema | undefined, depth + 1)];
  if (type === 'integer' || type === 'number') return Math.max(Number(schema.minimum ?? 1), 1);
  if (type === 'boolean') return true;
  const formats: Record<string, string> = {
    uuid: NOWHERE,
    date: '2000-01-01',
    'date-time': '2026-01-01T00:00:00Z',
    email: 'ada@example.com',
    uri: 'https://127.0.0.1/hook',
  };
  if (typeof schema.format === 'string' && formats[schema.format]) return formats[schema.format];
  if (schema.pattern === '^[A-Z]{2}$') return 'NG';
  return 'x'.repeat(Math.max(Number(schema.minLength ?? 1), 1));
}

/** Replaces every leaf (string, number, boolean, null) of a JSON value. */
function mapLeaves(value: unknown, leaf: (value: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, leaf));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapLeaves(item, leaf)]));
  }
  return leaf(value);
}

/** A body whose every leaf is `replacement`, with one member more when the sample has no leaf. */
const everyLeaf = (sample: unknown, replacement: unknown) => {
  const body = mapLeaves(sample, () => replacement) as Record<string, unknown>;
  return Object.keys(body).length > 0 ? body : { note: replacement };
};
/** The same, written with a raw JSON numeral in each leaf (what JSON.stringify cannot write). */
const everyLeafNumeral = (sample: unknown, numeral: string) =>
  JSON.stringify(everyLeaf(sample, '\u0001numeral')).replaceAll('"\\u0001numeral"', numeral);

interface HostileRequest {
  kind: string;
  body?: string | Uint8Array;
  contentType?: string;
  query?: string;
  headers?: Record<string, string>;
  /** Whether any success would be wrong (else only a 5xx or a non-JSON error is). */
  mustRefuse: boolean;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
/** The sample's JSON with each string's first character replaced by the given bytes. */
function withBytes(sample: unknown, bytes: number[]): Uint8Array {
  const text = JSON.stringify(everyLeaf(sample, '\u0002'));
  const parts = text.split('\u0002').map(utf8);
  const out: number[] = [];
  parts.forEach((part, index) => out.push(...(index > 0 ? bytes : []), ...part));
  return Uint8Array.from(out);
}

/** Every hostile body; no body at all (or an empty one) is refused only where the document requires one. */
function bodyKinds(sample: unknown, bodyRequired: boolean): HostileRequest[] {
  const json = 'application/json';
  const text = JSON.stringify(sample);
  const [firstKey] = Object.keys((sample ?? {}) as object);
  const firstPair = firstKey === undefined ? '"a":1' : `${JSON.stringify(firstKey)}:1`;
  const kinds: [string, string | Uint8Array, string | undefined][] = [
    ['NUL in every text', JSON.stringify(everyLeaf(sample, 'a\u0000b')), json],
    ['C0 controls in every text', JSON.stringify(everyLeaf(sample, 'a\u0001\u0008\u001b[31m\u001fb')), json],
    ['NUL in a key', JSON.stringify({ ...(sample as object), 'na\u0000me': 'x' }), json],
    ['invalid UTF-8 (0xFF)', withBytes(sample, [0xff, 0xfe]), json],
    ['overlong UTF-8 (NUL as C0 80)', withBytes(sample, [0xc0, 0x80]), json],
    ['a lone surrogate as UTF-8 (ED A0 80)', withBytes(sample, [0xed, 0xa0, 0x80]), json],
    ['JSON 33 levels deep', `${'{"a":'.repeat(33)}1${'}'.repeat(33)}`, json],
    ['JSON 100,000 levels deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, json],
    ['a 64 KiB string in every text', JSON.stringify(everyLeaf(sample, 'x'.repeat(64 * 1024))), json],
    ['a body over the limit', JSON.stringify({ note: 'x'.repeat(1_100_000) }), json],
    ['1e400 in every leaf', everyLeafNumeral(sample, '1e400'), json],
    ['-0 in every leaf', everyLeafNumeral(sample, '-0'), json],
    ['2^53 + 1 in every leaf', everyLeafNumeral(sample, '9007199254740993'), json],
    ['a repeated key', `{${firstPair},${text.slice(1)}`, json],
    ['text/plain', text, 'text/plain'],
    ['a form', 'a=b', 'application/x-www-form-urlencoded'],
    ['multipart', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'],
    ['XML', '<a/>', 'application/xml'],
    ['JSON in UTF-16', text, 'application/json; charset=utf-16'],
    ['JSON without a content type', utf8(text), undefined],
    ['an array', '[]', json],
    ['an array of the body', `[${text}]`, json],
    ['a string', '"text"', json],
    ['a number', '42', json],
    ['null', 'null', json],
    ['true', 'true', json],
    ['no body', '', undefined],
    ['an empty JSON body', '', json],
    ['whitespace', '  \n', json],
  ];
  const mayBeEmpty = (kind: string) => !bodyRequired && (kind === 'no body' || kind === 'an empty JSON body');
  // -0 is the number 0: a body whose every leaf is a number (rotate's overlap_seconds) may take it.
  const leaves: unknown[] = [];
  mapLeaves(sample, (leaf) => leaves.push(leaf));
  const numbersOnly = leaves.length > 0 && leaves.every((leaf) => typeof leaf === 'number');
  const mayBeTaken = (kind: string) => mayBeEmpty(kind) || (kind === '-0 in every leaf' && numbersOnly);
  return kinds.map(([kind, body, contentType]) => ({ kind, body, contentType, mustRefuse: !mayBeTaken(kind) }));
}

/** Query strings; the first ones the input boundary refuses on every route. */
const QUERY_KINDS: HostileRequest[] = [
  ...[
    ['NUL in a name', '%00=1'],
    ['NUL in a value', 'email=a%00b%40x.com'],
    ['C0 controls in a value', 'email=%01%1B%5B31m'],
    ['invalid UTF-8', 'email=%FF%FE'],
    ['overlong UTF-8', 'email=%C0%80'],
    ['a lone surrogate', 'email=%ED%A0%80'],
  ].map(([kind = '', query]) => ({ kind: `query: ${kind}`, query, mustRefuse: true })),
  ...[
    ['prototype names', '__proto__=1&constructor=2'],
    ['brackets', 'a[b]=c&a[]=d'],
    ['a 4 KiB value', `email=${'x'.repeat(4096)}`],
    ['1e400', 'page=1e400&per_page=1e400'],
    ['-0', 'page=-0&per_page=-0'],
    ['2^53 + 1', 'page=9007199254740993'],
    ['a repeated name', 'email=a&email=b'],
    ['a stray %', 'email=100%'],
  ].map(([kind = '', query]) => ({ kind: `query: ${kind}`, query, mustRefuse: false })),
];

/**
 * A stream's Last-Event-ID must be an id it sent: anything else is refused before the stream opens.
 * (A control character cannot be sent: fetch refuses it, and Node's parser would before express.)
 */
const LAST_EVENT_ID_KINDS: HostileRequest[] = [
  ['not an id', 'x'],
  ['an xid beyond 64 bits', `18446744073709551616_${NOWHERE}`],
  ['21 digits', `${'9'.repeat(21)}_${NOWHERE}`],
  ['a negative xid', `-1_${NOWHERE}`],
  ['no uuid', '12345_'],
  ['a uuid of the wrong shape', '12345_zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'],
  ['Latin-1 text', '12345_\u00e9\u00e9'],
  ['a 4 KiB value', `12345_${'0'.repeat(4096)}`],
  ['a repeated position', `12345_${NOWHERE}, 12345_${NOWHERE}`],
].map(([kind = '', value = '']) => ({
  kind: `Last-Event-ID: ${kind}`,
  headers: { 'last-event-id': value },
  mustRefuse: true,
}));

interface Answer {
  operation: string;
  kind: string;
  status: number;
  problem?: string;
}

/** What is wrong with an answer, if anything: a 5xx, or an error outside the error body of DESIGN.md. */
function problemOf(status: number, contentType: string, text: string, mustRefuse: boolean): string | undefined {
  if (status >= 500) return `a server error: ${text.slice(0, 300)}`;
  if (status < 400) return mustRefuse ? `accepted (${status}): ${text.slice(0, 300)}` : undefined;
  if (!contentType.startsWith('application/json')) return `not JSON (${contentType}): ${text.slice(0, 200)}`;
  if (/\n\s+at |node_modules|\/work\//.test(text)) return `leaks internals: ${text.slice(0, 300)}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `not parseable: ${text.slice(0, 200)}`;
  }
  if (body.status !== false || typeof body.message !== 'string' || body.message === '')
    return `no status/message: ${text}`;
  if (typeof body.code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(body.code)) return `no code: ${text}`;
  const { errors } = body;
  if (errors !== undefined) {
    const wellFormed =
      typeof errors === 'object' &&
      errors !== null &&
      Object.values(errors).every(
        (problems) => Array.isArray(problems) && problems.length > 0 && problems.every((p) => typeof p === 'string'),
      );
    if (!wellFormed) return `errors is not a map of field to problems: ${text.slice(0, 300)}`;
  }
  if (body.code === 'VALIDATION_FAILED' && errors === undefined) return `a validation failure naming no field: ${text}`;
  return undefined;
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

const tally = (answers: readonly Answer[], key: (answer: Answer) => string | number) =>
  Object.fromEntries(
    [
      ...answers.reduce((counts, answer) => counts.set(key(answer), (counts.get(key(answer)) ?? 0) + 1), new Map()),
    ].sort(([a], [b]) => String(a).localeCompare(String(b))),
  ) as Record<string, number>;

describe('hostile input (issue 18): every documented route × every hostile kind is a 4xx in the error body, nothing stored altered', () => {
  // The business's events go to a port on 127.0.0.1 where nothing listens: no packet leaves this machine.
  const platform = new Platform({ notificationEnv: { WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' } });
  const customers = platform.customers;
  let token: string;
  let credentials: Credentials;
  let customer: CustomerJson;
  let webhook: WebhookJson;
  let operations: Operation[];

  const snapshot = async () => ({
    customer: await customers.getCustomer(token, customer.id),
    list: await jsonOf<{ data: CustomerJson[] }>(await customers.call(token, 'GET', '/customer'), 200, 'list'),
    // Without its secret's last four and updated_at: an empty body is a valid rotation (decision 0065),
    // which the corpus may send, and a rotation changes only those.
    webhook: (({ signing_secret_last4: _last4, updated_at: _updated, ...rest }) => rest)(
      await platform.webhooks.get(token),
    ),
  });

  beforeAll(async () => {
    await platform.start();
    const business = await platform.createBusiness('Hostile Input Ltd');
    // Thousands of calls in a minute: the limits are not under test here.
    await platform.patchBusiness(business.id, {
      rate_limits: { per_minute: 100_000, per_hour: 6_000_000 },
      kyb_minimal_allowed: true,
    });
    credentials = await platform.createCredentials(business.id);
    token = await platform.accessToken(credentials, credentials.scopes.join(' '));
    customer = await customers.createCustomer(token, businessBody({ kyb_scope: 'FULL', owners: [ownerBody()] }));
    const nowhere = `https://127.0.0.1:${await freePort()}`;
    webhook = await platform.webhooks.register(token, {
      collection_url: `${nowhere}/collection`,
      payout_url: `${nowhere}/payout`,
    });
    const contract = await OpenApiContract.load(platform.publicUrl);
    operations = Object.entries(contract.resolved.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({
          method,
          path,
          requestBody: operation.requestBody?.content['application/json']?.schema,
          bodyRequired: operation.requestBody?.required !== false,
          stream: Object.entries(operation.responses).some(
            ([status, response]) =>
              /^2\d\d$/.test(status) &&
              Object.keys(response.content ?? {}).some((type) => type.startsWith(STREAM_TYPE)),
          ),
        })),
    );
  });
  afterAll(() => platform.stop());

  /**
   * A route that reads a body is sent at the business's own records, where a refusal that failed
   * would change something; the rest at an id that names nothing.
   */
  const concrete = (operation: Operation) => {
    const owns = operation.requestBody !== undefined;
    return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (!owns) return NOWHERE;
      if (operation.path.startsWith('/api/external/customer/')) {
        if (name === 'id' || name === 'customer') return customer.id;
        if (name === 'owner') return customer.owners[0]?.id ?? NOWHERE;
      }
      if (operation.path.startsWith('/api/external/webhook/{id}')) return webhook.id;
      return NOWHERE;
    });
  };

  it('the corpus: never a 5xx, always the error body, every hostile body and query refused; the stored records unchanged', async () => {
    const before = await snapshot();
    const started = Date.now();
    const work = operations.flatMap((operation) => {
      const kinds = [
        ...QUERY_KINDS,
        ...(operation.stream ? LAST_EVENT_ID_KINDS : []),
        ...(operation.method === 'get' ? [] : bodyKinds(sampleOf(operation.requestBody), operation.bodyRequired)),
      ];
      return kinds.map((kind) => ({ operation, kind }));
    });
    const answers: Answer[] = [];
    const created = new Set<string>();
    await inParallel(work, 6, async ({ operation, kind }) => {
      const path = `${concrete(operation)}${kind.query ? `?${kind.query}` : ''}`;
      const connection = new AbortController();
      const response = await platform.api(path, token, {
        method: operation.method.toUpperCase(),
        headers: { ...(kind.contentType ? { 'content-type': kind.contentType } : {}), ...kind.headers },
        ...(kind.body === undefined ? {} : { body: kind.body }),
        signal: connection.signal,
      });
      const contentType = response.headers.get('content-type') ?? '';
      let text: string;
      let problem: string | undefined;
      if (operation.stream && response.status < 300) {
        // A stream answers until the client leaves: its status and media type are the answer.
        connection.abort();
        text = `(a ${contentType} stream)`;
        problem = contentType.startsWith(STREAM_TYPE)
          ? problemOf(response.status, contentType, text, kind.mustRefuse)
          : `a stream answered ${contentType}, not ${STREAM_TYPE}`;
      } else {
        text = await response.text();
        problem = problemOf(response.status, contentType, text, kind.mustRefuse);
      }
      // A body an operation may go without made something (the sandbox's one-call customer): not the corpus's change.
      if (response.status === 201 && !kind.mustRefuse)
        created.add((JSON.parse(text) as { data: { id: string } }).data.id);
      answers.push({
        operation: `${operation.method.toUpperCase()} ${operation.path}`,
        kind: kind.kind,
        status: response.status,
        ...(problem ? { problem } : {}),
      });
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `hostile-input corpus: ${answers.length} requests over ${operations.length} operations in ${seconds} s; by status ${JSON.stringify(tally(answers, (answer) => answer.status))}`,
    );

    if (answers.some(({ status }) => status >= 500)) {
      // What the services logged about it, for whoever reads the failure.
      for (const service of [platform.gateway, platform.identity, platform.customerKyb, platform.notification]) {
        const errors =
          service
            ?.output()
            .split('\n')
            .filter((line) => /"level":"(error|fatal)"/.test(line)) ?? [];
        if (errors.length > 0)
          console.log(
            errors
              .slice(-5)
              .map((line) => line.slice(0, 2000))
              .join('\n'),
          );
      }
    }
    // Coverage: every body and query reached its route (no scope or rate limit stood in the way).
    expect(answers.filter(({ status }) => status === 403 || status === 429)).toEqual([]);
    expect(answers.filter(({ problem }) => problem)).toEqual([]);
    const after = await snapshot();
    expect({ ...after, list: { ...after.list, data: after.list.data.filter(({ id }) => !created.has(id)) } }).toEqual(
      before,
    );
    expect(before.list.data.map(({ id }) => id)).toEqual([customer.id]);
  });

  describe('the rows of issue 18 that answered 200, 202 or 500', () => {
    const noBody = [
      ['no body and no content type', {}],
      ['an empty body declared as JSON', { headers: { 'content-type': 'application/json' }, body: '' }],
    ] as const;

    it.each(noBody)(
      'PUT /customer/{id} and POST /customer/{id}/kyc-data with %s: 422 naming the body, the customer unchanged',
      async (_name, init) => {
        const before = await customers.getCustomer(token, customer.id);
        for (const [method, path] of [
          ['PUT', `/api/external/customer/${customer.id}`],
          ['POST', `/api/external/customer/${customer.id}/kyc-data`],
          ['PUT', `/api/external/webhook/${webhook.id}`],
        ] as const) {
          const body = await expectError(await platform.api(path, token, { method, ...init }), 422, {
            code: 'VALIDATION_FAILED',
            message: /^the request body is required/,
          });
          expect(body.errors).toEqual({ '(body)': ['is required: send a JSON object'] });
        }
        expect(await customers.getCustomer(token, customer.id)).toEqual(before);
      },
    );

    it('until: null on the bulk replay is 422 naming until (the documented type is a date-time)', async () => {
      const response = await platform.webhooks.call(token, 'POST', '/webhook/deliveries/replay', {
        since: '2026-11-20T00:00:00Z',
        until: null,
      });
      const body = await expectError(response, 422, { code: 'VALIDATION_FAILED', message: /^until / });
      expect(body.errors).toEqual({ until: [expect.stringMatching(/date-time.*null$/)] });
    });

    it('owners at 33.333 + 33.333 + 33.334 are accepted (seed 2.2: 0 to 100; 4.2: sum exactly 100), read back as sent', async () => {
      const shares = [33.333, 33.333, 33.334];
      const created = await customers.createCustomer(
        token,
        businessBody({ kyb_scope: 'FULL', owners: shares.map((share) => ownerBody({ ownership_percentage: share })) }),
      );
      expect(created.owners.map((owner) => owner.ownership_percentage)).toEqual(shares);
      // Six decimals, as the JSON text was written, through gRPC and jsonb and back.
      const sixths = [16.666667, 16.666667, 16.666666, 50];
      const replaced = await customers.updateCustomer(token, created.id, {
        owners: [
          ...created.owners.map((owner, index) => ({ id: owner.id, ownership_percentage: sixths[index] })),
          ownerBody({ ownership_percentage: sixths[3] }),
        ],
      });
      expect(replaced.owners.map((owner) => owner.ownership_percentage)).toEqual(sixths);
      const raw = await (await customers.call(token, 'GET', `/customer/${created.id}`)).text();
      for (const share of ['16.666667', '16.666666']) expect(raw).toContain(`"ownership_percentage":${share}`);
    });

    it('upgrade (seed 4.2): six decimals summing to exactly 100 are taken as sent; a seventh, or a sum of 99.999999, is 422 naming it', async () => {
      const upgrade = async (...shares: number[]) => {
        const minimal = await customers.createCustomer(token, businessBody({ kyb_scope: 'MINIMAL' }));
        const owners = shares.map((share) => ownerBody({ ownership_percentage: share }));
        return customers.call(token, 'POST', `/customer/${minimal.id}/upgrade-kyb-scope`, { owners });
      };
      const thirds = [33.333334, 33.333333, 33.333333];
      const upgraded = await jsonOf<{ data: CustomerJson }>(await upgrade(...thirds), 200, 'upgrade');
      expect(upgraded.data.owners.map((owner) => owner.ownership_percentage)).toEqual(thirds);

      const seventh = await expectError(await upgrade(33.3333333, 66.6666667), 422);
      expect(seventh.errors).toMatchObject({
        'owners.0.ownership_percentage': [expect.stringMatching(/at most 6 decimal places/)],
        'owners.1.ownership_percentage': [expect.stringMatching(/at most 6 decimal places/)],
      });
      const short = await expectError(await upgrade(33.333333, 33.333333, 33.333333), 422);
      expect(short.errors).toEqual({ owners: [expect.stringMatching(/sum to exactly 100 \(they sum to 99.999999\)/)] });
    });
  });

  describe('POST /oauth/token in its own shape (RFC 6749 5.2 and DESIGN.md at once)', () => {
    const form = 'application/x-www-form-urlencoded';
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

    const expectOAuthError = async (response: Response, status: number, error: string, message?: RegExp) => {
      const body = await expectError(response, status, { error, ...(message ? { message } : {}) });
      expect(response.headers.get('cache-control')).toBe('no-store');
      return body;
    };

    it('NUL or another control character in client_id, client_secret or scope: 400 invalid_request naming it, by form and by Basic', async () => {
      const { client_id: id, client_secret: secret } = credentials;
      for (const [name, fields] of [
        ['client_id', { client_id: `${id}\u0000`, client_secret: secret }],
        ['client_id', { client_id: `\u0000${id}`, client_secret: secret }],
        ['client_secret', { client_id: id, client_secret: `${secret}\u001b` }],
        ['scope', { client_id: id, client_secret: secret, scope: 'customer:read\u0000' }],
      ] as const) {
        const body = new URLSearchParams({ grant_type: 'client_credentials', ...fields });
        await expectOAuthError(
          await platform.postToken(body, { 'content-type': form }),
          400,
          'invalid_request',
          new RegExp(`^parameter "${name}" must not contain control characters`),
        );
      }
      for (const authorization of [
        basic(`${id}%00`, secret),
        basic(`${id}\u0000`, secret),
        basic(id, `${secret}%01`),
      ]) {
        await expectOAuthError(
          await platform.postToken('grant_type=client_credentials', { 'content-type': form, authorization }),
          400,
          'invalid_request',
          /must not contain control characters \(in the Authorization header\)$/,
        );
      }
      // The credentials themselves still work.
      expect((await platform.requestToken(credentials, 'customer:read')).status).toBe(200);
    });

    it('a client_id that was never issued, however odd, is 401 invalid_client, like any unknown one', async () => {
      for (const clientId of ['ci_test_' + 'é'.repeat(32), 'x'.repeat(5000), "' or 1=1 --", 'ci_test_ZZ']) {
        await expectOAuthError(
          await platform.requestToken({ client_id: clientId, client_secret: 'secret' }),
          401,
          'invalid_client',
        );
      }
    });

    it('every hostile body answers a 4xx with an RFC 6749 error, never a 5xx', async () => {
      const valid = `grant_type=client_credentials&client_id=${credentials.client_id}&client_secret=${credentials.client_secret}`;
      const kinds: [string, string | Uint8Array, Record<string, string>][] = [
        [
          'JSON',
          JSON.stringify({ grant_type: 'client_credentials', ...credentials }),
          { 'content-type': 'application/json' },
        ],
        ['no content type', utf8(valid), {}],
        ['no body', '', { 'content-type': form }],
        [
          'invalid UTF-8',
          Uint8Array.from([...utf8('grant_type=client_credentials&client_id='), 0xff, 0xfe]),
          { 'content-type': form },
        ],
        ['a NUL byte', `${valid}%00`, { 'content-type': form }],
        ['a raw NUL', `grant_type=client_credentials\u0000&client_id=a&client_secret=b`, { 'content-type': form }],
        ['a repeated parameter', `${valid}&client_id=other`, { 'content-type': form }],
        ['a huge value', `${valid}&scope=${'x'.repeat(20_000)}`, { 'content-type': form }],
        [
          'bad percent-encoding',
          'grant_type=client_credentials&client_id=%E0%A4%A&client_secret=b',
          { 'content-type': form },
        ],
        ['both Basic and the body', valid, { 'content-type': form, authorization: basic('a', 'b') }],
        ['another grant', 'grant_type=password&username=a&password=b', { 'content-type': form }],
        ['another charset', valid, { 'content-type': `${form}; charset=utf-16` }],
      ];
      const statuses: Record<string, number> = {};
      for (const [kind, body, headers] of kinds) {
        const response = await fetch(`${platform.publicUrl}/oauth/token`, { method: 'POST', headers, body });
        const text = await response.text();
        statuses[kind] = response.status;
        expect({ kind, status: response.status >= 400 && response.status < 500 }).toEqual({ kind, status: true });
        const answer = JSON.parse(text) as Record<string, unknown>;
        expect({ kind, error: RFC6749_ERRORS.includes(String(answer.error)) }).toEqual({ kind, error: true });
        expect(answer).toMatchObject({ status: false, message: answer.error_description, code: expect.any(String) });
      }
      console.log(`hostile-input corpus at /oauth/token: ${JSON.stringify(statuses)}`);
    });
  });
});
