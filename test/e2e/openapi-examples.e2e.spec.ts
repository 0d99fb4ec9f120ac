import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestCertificates, WebhookReceiver, type TestCertificates } from '@corridor/testing';
import { COLLECTION_TIMINGS } from '../support/collections.js';
import { businessBody, individualBody } from '../support/customers.js';
import { OpenApiContract, type OpenApiOperation } from '../support/openapi.js';
import { Platform } from '../support/platform.js';
import { receiverEnv } from '../support/receiving-business.js';

/**
 * Issue 31 part 4, done when "/docs Try-it succeeds for every example on a fresh sandbox": every
 * operation of the served document is sent as Swagger UI's "Try it out" would send it, by the
 * sandbox business `corridor admin sandbox seed` makes (as `npm start` does) on a platform of this
 * suite's own, with a token holding every scope the document names. The request body is the
 * documented example exactly, except for what a reader must fill in anyway: path parameters and the
 * ids in a body (customer_id, file_id, transaction_id…) name objects this spec created first, and the
 * webhook registration and update examples' host (example.com, which notification refuses: not
 * resolvable here, and not allowed) becomes this spec's HTTPS receiver on 127.0.0.1 — for those two
 * operations only. Required query parameters take their schema's example (else its first enum
 * value); POSTs carry an Idempotency-Key, as documented. Each answer must be a documented 2xx that
 * fits the document (test/support/openapi.ts); the spec fails once, listing every operation that did
 * not, with its status and body.
 */

type Json = Record<string, unknown>;

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Operations this spec does not send from the document, and why: the token endpoint's body is a
 * form of the reader's own credentials (every other call here uses a token it answered).
 */
const NOT_SENT: Readonly<Record<string, string>> = {
  requestToken: 'its example is placeholder credentials; every other call proves the endpoint',
};

/** The 422 codes payments answers until its projection of customer-kyb's verdict catches up. */
const PROJECTION_LAGS = ['CUSTOMER_NOT_FOUND', 'CUSTOMER_NOT_VERIFIED'];

/** Bytes of the length a presigned upload example declares, starting like the declared type. */
function bytesFor(contentType: string, length: number): Buffer {
  const magic: Record<string, Buffer> = {
    'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    'application/pdf': Buffer.from('%PDF-1.4\n'),
  };
  const bytes = Buffer.alloc(length, 0x20);
  (magic[contentType] ?? Buffer.alloc(0)).copy(bytes);
  return bytes;
}

interface Sent {
  operationId: string;
  status: number;
  body: Json;
}

interface Send {
  /** Path parameter values by name. */
  path?: Record<string, string | undefined>;
  /** Top-level body fields replacing the example's (ids of this spec's objects). */
  body?: Json;
  /** Error codes that mean "not yet" (another service catching up): sent again until another answer. */
  retryOn?: string[];
}

class Skipped extends Error {}

const STREAM_TYPE = 'text/event-stream';

/** The `data` of each Server-Sent Event in `text`, as JSON (events end at a blank line; `:` lines are comments). */
function eventData(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => {
      try {
        return JSON.parse(data) as unknown;
      } catch {
        return data;
      }
    });
}

/** A JSON value's shape: its members' names and the JSON type of each leaf, recursively. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value === null) return 'null';
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, member]) => [key, shapeOf(member)]),
    );
  return typeof value;
}

/** The JSON request body example "Try it out" sends, if the operation documents one. */
const documentedExample = (operation: OpenApiOperation): Json | undefined =>
  (operation.requestBody?.content['application/json'] as { example?: Json } | undefined)?.example;

describe('every documented example succeeds on a fresh sandbox (issue 31 part 4)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let receiver: WebhookReceiver;
  let contract: OpenApiContract;
  let token: string;
  let folder: string | undefined;
  let sandbox: { business_id: string; client_id: string; client_secret: string };
  const failures: string[] = [];
  const sent = new Set<string>();

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      notificationEnv: receiverEnv(certificates, [0, 200, 400, 600, 800]),
      paymentsEnv: COLLECTION_TIMINGS,
    });
    await platform.start();
    receiver = await WebhookReceiver.start({ certificates });
    contract = await OpenApiContract.load(platform.publicUrl);
    // A fresh sandbox is what `npm start` seeds: the sandbox business, its rates and funded wallets.
    folder = await mkdtemp(join(tmpdir(), 'openapi-examples-'));
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'packages/admin-cli/dist/main.js'), 'admin', 'sandbox', 'seed'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          CORRIDOR_LOCAL: folder,
          CORRIDOR_ADMIN_URL: platform.adminUrl,
          CORRIDOR_BASE_URL: platform.publicUrl,
          ADMIN_TOKEN: platform.adminToken,
        },
      },
    );
    sandbox = JSON.parse(await readFile(join(folder, 'sandbox.json'), 'utf8')) as typeof sandbox;
    // Rate limits are not under test; a retry waiting for a projection must not reach them.
    await platform.patchBusiness(sandbox.business_id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    token = await platform.accessToken(sandbox, allScopes().join(' '));
  });
  afterAll(async () => {
    await receiver?.stop();
    await platform?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** Every scope an operation of the document requires. */
  function allScopes(): string[] {
    const scopes = new Set<string>();
    for (const { operation } of operations()) {
      for (const requirement of operation.security ?? [])
        for (const scope of requirement.oauth2 ?? []) scopes.add(scope);
    }
    return [...scopes].sort();
  }

  function operations(): { method: string; path: string; operation: OpenApiOperation & Json }[] {
    return Object.entries(contract.resolved.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => typeof operation === 'object' && 'responses' in operation)
        .map(([method, operation]) => ({ method, path, operation: operation as OpenApiOperation & Json })),
    );
  }

  function find(operationId: string) {
    const found = operations().find(({ operation }) => operation.operationId === operationId);
    if (!found) throw new Error(`the document has no operation ${operationId}`);
    return found;
  }

  const need = (value: string | undefined, what: string): string => {
    if (value === undefined) throw new Skipped(`skipped: ${what} was not created`);
    return value;
  };

  /** The operation as "Try it out" sends it; records a failure (and answers undefined) unless a documented 2xx. */
  async function send(operationId: string, options: Send = {}): Promise<Json | undefined> {
    sent.add(operationId);
    try {
      return (await attempt(operationId, options)).body;
    } catch (error) {
      failures.push(`${operationId}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  async function attempt(operationId: string, options: Send): Promise<Sent> {
    const { method, path, operation } = find(operationId);
    const parameters = (operation.parameters ?? []) as {
      name: string;
      in: string;
      required?: boolean;
      schema?: { examples?: unknown[]; enum?: unknown[] };
    }[];
    const concrete = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (!(name in (options.path ?? {}))) throw new Error(`no value for the path parameter ${name}`);
      return encodeURIComponent(need(options.path?.[name], name));
    });
    const query = new URLSearchParams();
    for (const parameter of parameters.filter((candidate) => candidate.in === 'query' && candidate.required)) {
      const value = parameter.schema?.examples?.[0] ?? parameter.schema?.enum?.[0];
      if (value === undefined) throw new Error(`no example for the required query parameter ${parameter.name}`);
      query.set(parameter.name, String(value));
    }
    const example = documentedExample(operation);
    for (const [field, value] of Object.entries(options.body ?? {})) need(value as string | undefined, field);
    const body = example === undefined ? undefined : { ...example, ...(options.body ?? {}) };
    const idempotent = parameters.some((parameter) => parameter.name === 'Idempotency-Key');
    const url = `${concrete}${query.size > 0 ? `?${query}` : ''}`;
    const call = () =>
      platform.api(url, operation.security ? token : undefined, {
        method: method.toUpperCase(),
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(idempotent ? { 'idempotency-key': randomUUID() } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    const deadline = Date.now() + 15_000;
    let response = await call();
    let text = await response.text();
    while (
      options.retryOn &&
      response.status >= 400 &&
      options.retryOn.includes(String((parse(text) as Json).code)) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      response = await call();
      text = await response.text();
    }
    const what = `${method.toUpperCase()} ${url}${body !== undefined ? ` ${JSON.stringify(body)}` : ''}`;
    const successes = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
    if (!successes.includes(String(response.status))) {
      throw new Error(`${what} → ${response.status} ${text} (documented: ${successes.join(', ')})`);
    }
    const answer = parse(text) as Json;
    if (operation.responses[String(response.status)]?.content?.['application/json']) {
      // test/support/openapi.ts's check (media type, body, documented headers), its verdict collected.
      try {
        await contract.expectDocumented(
          new Response(text, { status: response.status, headers: response.headers }),
          method,
          path,
        );
      } catch (error) {
        throw new Error(`${what} → ${response.status} does not fit the document: ${String(error)}`);
      }
    }
    return { operationId, status: response.status, body: answer };
  }

  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return { text };
    }
  };

  /**
   * A `text/event-stream` operation as a client reads it: a documented 2xx of the documented media
   * type, then events until the first whose data has the documented example's shape (`trigger` makes
   * one, once the stream is open); then the client leaves. Answers that event's data.
   */
  async function sendStream(operationId: string, trigger: () => Promise<unknown>): Promise<Json | undefined> {
    sent.add(operationId);
    const { method, path, operation } = find(operationId);
    const connection = new AbortController();
    try {
      const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
      const documented = successes.flatMap(([, response]) =>
        Object.entries((response.content ?? {}) as Record<string, { example?: unknown }>),
      );
      const [mediaType, media] = documented.find(([type]) => type.startsWith(STREAM_TYPE)) ?? [];
      if (!mediaType || typeof media?.example !== 'string') throw new Error(`documents no ${STREAM_TYPE} example`);
      const example = eventData(media.example).find((data) => typeof data === 'object' && data !== null);
      if (example === undefined) throw new Error('its documented example has no event with JSON data');
      const wanted = JSON.stringify(shapeOf(example));

      const timeout = setTimeout(() => connection.abort(), 30_000);
      const response = await platform.api(path, token, {
        method: method.toUpperCase(),
        headers: { accept: STREAM_TYPE },
        signal: connection.signal,
      });
      const what = `${method.toUpperCase()} ${path}`;
      if (!successes.some(([status]) => status === String(response.status))) {
        clearTimeout(timeout);
        throw new Error(
          `${what} → ${response.status} ${await response.text()} (documented: ${successes.map(([s]) => s).join(', ')})`,
        );
      }
      const contentType = response.headers.get('content-type') ?? '';
      if (!contentType.startsWith(mediaType)) {
        clearTimeout(timeout);
        throw new Error(`${what} → ${response.status} answered ${contentType}, documented ${mediaType}`);
      }
      const triggered = trigger();
      const decoder = new TextDecoder();
      let text = '';
      const seen: string[] = [];
      try {
        for await (const chunk of response.body ?? []) {
          text += decoder.decode(chunk as Uint8Array, { stream: true });
          const complete = text.slice(0, text.lastIndexOf('\n\n') + 1);
          for (const data of eventData(complete)) {
            if (JSON.stringify(shapeOf(data)) === wanted) return data as Json;
            seen.push(JSON.stringify(data).slice(0, 300));
          }
          text = text.slice(complete.length);
        }
      } catch (error) {
        if (!connection.signal.aborted) throw error;
      } finally {
        clearTimeout(timeout);
        await triggered;
      }
      throw new Error(
        `${what}: no event shaped as the documented example's within 30 s (${JSON.stringify(shapeOf(example))}); saw ${seen.join(' | ') || 'none'}`,
      );
    } catch (error) {
      failures.push(`${operationId}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      connection.abort();
    }
  }

  /** The `data` of an answer, or of its first list entry. */
  const dataOf = (answer: Json | undefined): Json | undefined => {
    const data = answer?.data;
    return (Array.isArray(data) ? data[0] : data) as Json | undefined;
  };
  const idOf = (answer: Json | undefined, field = 'id'): string | undefined => {
    const value = dataOf(answer)?.[field];
    return typeof value === 'string' ? value : undefined;
  };

  /** The id of the (last) owner of a customer answer. */
  const ownerOf = (answer: Json | undefined): string | undefined => {
    const owners = dataOf(answer)?.owners as Json[] | undefined;
    const id = owners?.at(-1)?.id;
    return typeof id === 'string' ? id : undefined;
  };

  /** The documented request body example of an operation. */
  const exampleBody = (operationId: string): Json =>
    structuredClone(documentedExample(find(operationId).operation) ?? {});

  /** The example's URLs on this spec's receiver: notification refuses example.com (unresolvable, not allowed). */
  const toReceiver = (example: Json): Json =>
    Object.fromEntries(
      Object.entries(example).map(([field, value]) => [
        field,
        typeof value === 'string' ? value.replace(/^https:\/\/example\.com/, receiver.url('')) : value,
      ]),
    );

  /** PUTs bytes to a presigned upload the way its answer says; the file id, once stored. */
  async function upload(answer: Json | undefined, operationId: string): Promise<string | undefined> {
    const data = dataOf(answer);
    if (!data) return undefined;
    const example = exampleBody(operationId);
    const stored = await fetch(String(data.upload_url), {
      method: String(data.method),
      headers: data.headers as Record<string, string>,
      body: bytesFor(String(example.content_type), Number(example.content_length)),
    });
    if (stored.status !== 200) {
      failures.push(`${operationId}: the upload to its upload_url answered ${stored.status} ${await stored.text()}`);
      return undefined;
    }
    return String(data.file_id);
  }

  /** A setup call of this spec's own (not an example under test), which must answer 2xx. */
  async function setup(path: string, body: Json, retryOn: string[] = [], method = 'POST'): Promise<Json | undefined> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const response = await platform.api(path, token, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as Json;
      if (response.status < 300) return answer;
      if (retryOn.includes(String(answer.code)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      failures.push(`setup ${method} ${path} ${JSON.stringify(body)}: ${response.status} ${JSON.stringify(answer)}`);
      return undefined;
    }
  }

  it('sends every operation with its documented example and gets a documented 2xx', async () => {
    // Without a token, and with one whatever its scopes.
    for (const operationId of ['liveness', 'readiness', 'openApiDocument', 'whoami']) await send(operationId);

    // The example's business customer: FULL, as a fresh sandbox's default. Its owner is added by
    // this spec (PUT /customer, the way to add owners) only to be removed by the example of removeOwner.
    const customer = idOf(await send('createCustomer'));
    await send('listCustomers');
    await send('getCustomer', { path: { id: customer } });
    await send('updateCustomer', { path: { id: customer } });
    await send('updateKycData', { path: { id: customer } });
    const exampleOwner = (exampleBody('upgradeKybScope').owners as Json[])[0];
    const withOwner = customer
      ? await setup(`/api/external/customer/${customer}`, { owners: [exampleOwner] }, [], 'PUT')
      : undefined;
    await send('removeOwner', { path: { customer, owner: ownerOf(withOwner) } });

    // upgrade-kyb-scope is for a MINIMAL customer, which only a business Corridor's back office has
    // allow-listed may create: allow-listed here, the upgraded customer then goes the whole way.
    await platform.patchBusiness(sandbox.business_id, { kyb_minimal_allowed: true });
    const minimal = idOf(await setup('/api/external/customer', businessBody({ kyb_scope: 'MINIMAL' })));
    const upgraded = await send('upgradeKybScope', { path: { customer: minimal } });
    const owner = ownerOf(upgraded);
    const ownerFile = await upload(
      await send('createOwnerFileUpload', { path: { customer: minimal, owner } }),
      'createOwnerFileUpload',
    );
    await send('attachOwnerFile', { path: { id: minimal, owner }, body: { file_id: ownerFile } });
    const firstDocument = await upload(
      await send('createDocumentUpload', { path: { customer: minimal } }),
      'createDocumentUpload',
    );
    const registered = await send('registerDocument', {
      path: { customer: minimal },
      body: { file_id: firstDocument },
    });
    const secondDocument = await upload(
      await send('createDocumentUpload', { path: { customer: minimal } }),
      'createDocumentUpload',
    );
    await send('replaceDocument', {
      path: { customer: minimal, document: idOf(registered) },
      body: { file_id: secondDocument },
    });
    await send('submitCustomer', { path: { customer: minimal } });
    await send('sandboxReviewCustomer', { path: { id: minimal } });

    // Legacy file-based verification applies to individuals only.
    const individual = idOf(await setup('/api/external/customer', individualBody()));
    const idFile = await upload(
      await send('createFileUpload', { body: { customer_id: individual } }),
      'createFileUpload',
    );
    await send('attachCustomerFiles', { path: { id: individual }, body: { id_file: idFile } });

    // The money examples' customer: VERIFIED in one call.
    const verified = idOf(await send('sandboxCreateCustomer'));
    const forVerified = { customer_id: verified };

    // KYC sessions.
    const session = idOf(await send('createKycSession'));
    await send('listKycSessions');
    await send('getKycSession', { path: { id: session } });
    await send('cancelKycSession', { path: { id: session } });

    // Webhooks, to this spec's receiver; the update (which clears kyc_url) after the mock kyc event.
    const registration = await send('registerWebhook', { body: toReceiver(exampleBody('registerWebhook')) });
    await send('getWebhook');
    await send('triggerMockWebhook');
    await send('listWebhookDeliveries');
    const delivery = await waitForDelivery();
    await send('getWebhookDelivery', { path: { id: delivery } });
    await send('replayWebhookDelivery', { path: { id: delivery } });
    await send('replayFailedWebhookDeliveries');
    // corridor listen (decision 0034): the stream from now on gets the next delivery, a mock event's
    // made once it is open; the listener's report of its local answer is then recorded on it.
    const listened = await sendStream('listenWebhookDeliveries', () =>
      setup('/api/external/webhook/mock', exampleBody('triggerMockWebhook')),
    );
    await send('recordWebhookListenAttempt', {
      path: { id: typeof listened?.delivery_id === 'string' ? listened.delivery_id : undefined },
    });
    await send('updateWebhook', { path: { id: idOf(registration) }, body: toReceiver(exampleBody('updateWebhook')) });
    // Decision 0065: a rotation with its example's overlap, then the overlap ended early.
    await send('rotateWebhookSecret', { path: { id: idOf(registration) } });
    await send('endWebhookSecretOverlap', { path: { id: idOf(registration) } });
    // Decision 0068: enabling a URL that is not disabled queues nothing and answers its health.
    await send('enableWebhookUrl', { path: { id: idOf(registration), kind: 'collection_url' } });

    // Reference data.
    for (const operationId of ['listCurrencies', 'quoteRate', 'getFees', 'listWallets', 'listBanks', 'lookupAccount']) {
      await send(operationId);
    }

    // Virtual accounts: the example's NGN account, funded by the example's transfer; a GBP one funded too.
    const ngn = idOf(await send('createVirtualAccount', { body: forVerified, retryOn: PROJECTION_LAGS }));
    const gbp = idOf(await setup('/api/external/virtual-account', { customer_id: verified, currency: 'GBP' }));
    await send('listVirtualAccounts');
    await send('listIdentificationTypes');
    await send('getVirtualAccount', { path: { id: ngn } });
    const funding = await send('sandboxIncomingTransfer', { path: { id: ngn } });
    const gbpFunding = gbp
      ? await setup(`/api/external/sandbox/virtual-account/${gbp}/incoming-transfer`, {
          amount: 5_000_000,
          sender_name: 'Jane Payer',
        })
      : undefined;

    // Money out of the NGN wallet; a second payout saves its destination as a beneficiary.
    const swap = await send('createSwap');
    const payout = await send('createPayout');
    await send('getPayout', { path: { id: idOf(payout) } });
    await setup('/api/external/payout', {
      ...exampleBody('createPayout'),
      reference: `payout-beneficiary-${randomUUID()}`,
      save_beneficiary: true,
    });
    await send('listTransactions');
    await send('getTransaction', { path: { id: idOf(swap) ?? idOf(funding) } });
    const beneficiaries = await send('listBeneficiaries');
    await send('getBeneficiary', { path: { id: idOf(beneficiaries) } });

    // Collections: the example's, paid by the sandbox payer; two more to decline and expire.
    const collection = idOf(await send('createCollection', { body: forVerified }));
    await send('getCollection', { path: { id: collection } });
    await send('sandboxPayCollection', { path: { id: collection } });
    for (const [operationId, outcome] of [
      ['sandboxDeclineCollection', 'declined'],
      ['sandboxExpireCollection', 'expired'],
    ] as const) {
      const other = await setup('/api/external/collection', {
        ...exampleBody('createCollection'),
        ...forVerified,
        reference: `collection-${outcome}-${randomUUID()}`,
      });
      await send(operationId, { path: { id: idOf(other) } });
    }
    // Refunds are for EUR and GBP collections: the GBP account's incoming transfer is refunded.
    const refund = await send('createRefund', { body: { transaction_id: idOf(gbpFunding) } });
    await send('getRefund', { path: { id: idOf(refund) } });
    await send('closeVirtualAccount', { path: { id: gbp } });

    // Crypto and Interac collections.
    await send('listCryptoNetworks');
    const address = idOf(await send('createCryptoAddress', { body: forVerified }));
    await send('sandboxCryptoDeposit', { path: { id: address } });
    await send('createInteracRequest', { body: forVerified });
    const incoming = await send('sandboxInteracIncoming', { body: forVerified });
    await send('acceptInteracTransfer', { path: { id: idOf(incoming) } });

    // The event history (decision 0066): the events of the calls above, newest first; one read back.
    const events = await send('listEvents');
    await send('getEvent', { path: { id: idOf(events) } });

    // The sandbox clock (decision 0069), last: its example advance moves every deadline above by 49 h.
    await send('startSandboxClock');
    await send('getSandboxClock');
    await send('advanceSandboxClock');

    const unsent = operations()
      .map(({ operation }) => operation.operationId)
      .filter((operationId) => !sent.has(operationId) && !(operationId in NOT_SENT));
    expect({ unsent, failures }).toEqual({ unsent: [], failures: [] });
  }, 180_000);

  /** The id of the mock event's delivery, once notification has recorded it. */
  async function waitForDelivery(): Promise<string | undefined> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const response = await platform.api('/api/external/webhook/deliveries', token);
      const id = idOf((await response.json()) as Json);
      if (id) return id;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    failures.push('no webhook delivery was recorded after triggerMockWebhook');
    return undefined;
  }
});
