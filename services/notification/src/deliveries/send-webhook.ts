import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { errorChain, type ErrorFields } from '@corridor/grpc';
import { systemClock, type Clock } from '@corridor/runtime';
import { resolveAndPin, type PinnedWebhookUrl, type WebhookUrlOptions } from '@corridor/ssrf-guard';
import { signWebhook } from '@corridor/webhook-signature';
import { Agent, type Dispatcher } from 'undici';

/** Why an attempt failed, as the attempt log shows it (decision 0010). */
export type AttemptErrorClass = 'http_status' | 'timeout' | 'connect' | 'tls' | 'redirect' | 'address_refused' | 'dns';

export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  outcome: 'succeeded' | 'failed';
  /** null when no response came. */
  statusCode: number | null;
  /** null on success. */
  errorClass: AttemptErrorClass | null;
  /** A sentence naming the problem, for the platform reading its attempt log; null on success. */
  errorMessage: string | null;
  /** The reply's first RESPONSE_BODY_LIMIT bytes as UTF-8; null without a response or with an empty body. */
  responseBody: string | null;
}

export interface WebhookSenderOptions {
  /** Tests only (receivers on 127.0.0.1); passed to resolveAndPin. */
  allowCidrs: readonly string[];
  /** PEM of CAs trusted in addition to Node's default roots (the tests' CA). */
  extraCa?: string;
  /** The whole attempt: resolve, connect, headers and body (seed 6.4 rule 6: 30 s). */
  timeoutMs: number;
  /** TCP and TLS connect. Running out of it is a `connect` failure, not a `timeout`. */
  connectTimeoutMs: number;
  /** An injected resolver for tests; the system resolver otherwise. */
  resolve?: WebhookUrlOptions['resolve'];
  /** For the timestamp header and startedAt. */
  now?: Clock;
}

export interface WebhookRequest {
  url: string;
  /** The rendered body, sent byte for byte on every attempt (decision 0010). */
  body: string;
  /** The secrets in force, newest first (decision 0065). */
  secret: string | readonly string[];
  webhookId: string;
  /** The event's number in its business's sequence (decision 0067); none for a mock. */
  sequence?: number;
}

/** The attempt log keeps 4 KiB of a reply (decision 0010). */
export const RESPONSE_BODY_LIMIT = 4096;

/** Connection pools kept for keep-alive; the least recently used one is closed past this. */
const MAX_AGENTS = 256;
/** A Location header is the receiver's text; the log keeps a readable amount of it. */
const MAX_LOCATION_LENGTH = 512;

/** OpenSSL's certificate verification codes (X509_V_ERR_* without the prefix) and Node's TLS ones. */
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|HOSTNAME_MISMATCH|INVALID_CA|PATH_LENGTH)/;
const UNTRUSTED_CODE = /^(UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|INVALID_CA|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE)/;

type Failure = Pick<AttemptResult, 'errorClass' | 'errorMessage'> & { errorClass: AttemptErrorClass };

const codeOf = (fields: ErrorFields) => (typeof fields.code === 'string' ? fields.code : '');
const messageOf = (fields: ErrorFields | undefined) =>
  typeof fields?.message === 'string' && fields.message !== '' ? fields.message : String(fields?.code ?? 'unknown');

/** Sorts an error from undici or the socket beneath it into the attempt log's classes. */
function classifyTransportError(error: unknown, target: string, connectTimeoutMs: number): Failure {
  const chain = errorChain(error);
  const withCode = (test: (code: string) => boolean) => chain.find((fields) => test(codeOf(fields)));
  const peer = (fields: ErrorFields) =>
    typeof fields.address === 'string' && typeof fields.port === 'number' ? `${fields.address}:${fields.port}` : target;

  const tls = withCode((code) => TLS_CODE.test(code));
  if (tls) {
    const code = codeOf(tls);
    const detail = messageOf(tls);
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH')
      return { errorClass: 'tls', errorMessage: `certificate does not match the host: ${detail}` };
    if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
      return { errorClass: 'tls', errorMessage: `certificate not valid now: ${detail}` };
    if (UNTRUSTED_CODE.test(code)) return { errorClass: 'tls', errorMessage: `certificate not trusted: ${detail}` };
    return { errorClass: 'tls', errorMessage: `TLS handshake failed: ${detail}` };
  }
  // A receiver that never completes TCP and TLS is a connection problem, not a slow reply: `connect`.
  if (withCode((code) => code === 'UND_ERR_CONNECT_TIMEOUT'))
    return { errorClass: 'connect', errorMessage: `no connection to ${target} within ${connectTimeoutMs} ms` };
  const osTimeout = withCode((code) => code === 'ETIMEDOUT');
  if (osTimeout) return { errorClass: 'connect', errorMessage: `connection to ${peer(osTimeout)} timed out` };
  const refused = withCode((code) => code === 'ECONNREFUSED');
  if (refused) return { errorClass: 'connect', errorMessage: `connection refused by ${peer(refused)}` };
  const reset = withCode((code) => code === 'ECONNRESET' || code === 'EPIPE');
  if (reset) return { errorClass: 'connect', errorMessage: `connection reset by ${peer(reset)} before a reply` };
  if (withCode((code) => code === 'UND_ERR_SOCKET'))
    return { errorClass: 'connect', errorMessage: `connection closed by ${target} before a reply` };
  const unreachable = withCode((code) => code === 'EHOSTUNREACH' || code === 'ENETUNREACH');
  if (unreachable) return { errorClass: 'connect', errorMessage: `${peer(unreachable)} is unreachable` };
  // The pinned lookup answers ENOTFOUND only when no checked address has the family asked for.
  const notFound = withCode((code) => code === 'ENOTFOUND');
  if (notFound) return { errorClass: 'dns', errorMessage: `no usable address for ${target}: ${messageOf(notFound)}` };
  const parser = withCode((code) => code.startsWith('HPE_'));
  if (parser) return { errorClass: 'connect', errorMessage: `the reply is not valid HTTP: ${messageOf(parser)}` };
  return { errorClass: 'connect', errorMessage: `request to ${target} failed: ${messageOf(chain[0])}` };
}

/** Reads at most `limit` bytes of a reply, then stops reading; whole characters only. */
async function readCapped(body: Dispatcher.ResponseData['body'], limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    chunks.push(bytes.subarray(0, limit - length));
    length = Math.min(limit, length + bytes.length);
    if (length >= limit) break; // leaving the loop destroys the body (and that connection)
  }
  // stream: true holds back a character the cut split, instead of ending in U+FFFD.
  const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true });
  return text === '' ? null : text;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeLocation(location: string | undefined, base: URL): string {
  if (location === undefined || location === '') return 'a redirect without a Location';
  let target = location;
  try {
    target = new URL(location, base).href;
  } catch {
    // an unparsable Location is reported as the receiver sent it
  }
  return `redirect to ${target.length > MAX_LOCATION_LENGTH ? `${target.slice(0, MAX_LOCATION_LENGTH)}…` : target}`;
}

/**
 * Makes one webhook attempt: check the URL again and pin its address (decision 0010 SSRF), sign,
 * POST, and report what happened. It never throws; every failure is an AttemptResult.
 */
export class WebhookSender {
  /** One pool per origin and pinned address set, in least recently used order. */
  private readonly agents = new Map<string, Agent>();
  /** Made once: a TLS context per connection would parse every root certificate again each time. */
  private readonly secureContext: SecureContext;
  private readonly now: Clock;
  private closed = false;

  constructor(private readonly options: WebhookSenderOptions) {
    // `ca` replaces Node's roots rather than adding to them, so public receivers need the roots listed too.
    this.secureContext = createSecureContext(
      options.extraCa === undefined ? {} : { ca: [...rootCertificates, options.extraCa] },
    );
    this.now = options.now ?? systemClock;
  }

  async send(request: WebhookRequest): Promise<AttemptResult> {
    const startedAt = this.now();
    const start = performance.now();
    const finish = (
      fields: Pick<AttemptResult, 'outcome' | 'errorClass' | 'errorMessage'> &
        Partial<Pick<AttemptResult, 'statusCode' | 'responseBody'>>,
    ): AttemptResult => ({
      startedAt,
      durationMs: Math.round(performance.now() - start),
      statusCode: null,
      responseBody: null,
      ...fields,
    });
    const fail = (failure: Failure, statusCode: number | null = null, responseBody: string | null = null) =>
      finish({ outcome: 'failed', ...failure, statusCode, responseBody });

    if (this.closed) return fail({ errorClass: 'connect', errorMessage: 'the webhook sender is closed' });

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    const timedOut = { errorClass: 'timeout', errorMessage: `no reply within ${this.options.timeoutMs} ms` } as const;
    try {
      const expired = new Promise<'expired'>((resolve) =>
        deadline.signal.addEventListener('abort', () => resolve('expired'), { once: true }),
      );
      const pinned = await Promise.race([
        resolveAndPin(request.url, { allowCidrs: this.options.allowCidrs, resolve: this.options.resolve }).catch(
          // It only throws for a malformed allow list: nothing may be sent then either.
          (error: unknown): PinnedWebhookUrl => ({
            ok: false,
            problem: `webhook URL could not be checked: ${String(error)}`,
          }),
        ),
        expired,
      ]);
      if (pinned === 'expired') {
        // Only a name is resolved, so the URL parsed.
        const host = URL.parse(request.url)?.hostname ?? request.url;
        return fail({
          errorClass: 'dns',
          errorMessage: `webhook URL host ${host} was not resolved within ${this.options.timeoutMs} ms`,
        });
      }
      if (!pinned.ok) {
        return fail({ errorClass: pinned.unresolved ? 'dns' : 'address_refused', errorMessage: pinned.problem });
      }

      const url = pinned.url;
      const bareHost = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const target = isIP(bareHost) === 0 ? `${url.host} (${pinned.addresses.join(', ')})` : url.host;
      const headers = signWebhook({
        secret: request.secret,
        body: request.body,
        timestamp: Math.floor(this.now().getTime() / 1000),
        webhookId: request.webhookId,
        sequence: request.sequence,
      });
      let response: Dispatcher.ResponseData;
      try {
        // No await between choosing the pool and dispatching: an eviction cannot close it in between.
        response = await this.agentFor(url, pinned.addresses, pinned.lookup).request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          body: request.body,
          signal: deadline.signal,
        });
      } catch (error) {
        if (deadline.signal.aborted) return fail(timedOut);
        return fail(classifyTransportError(error, target, this.options.connectTimeoutMs));
      }

      const { statusCode } = response;
      let responseBody: string | null;
      try {
        responseBody = await readCapped(response.body, RESPONSE_BODY_LIMIT);
      } catch (error) {
        if (deadline.signal.aborted) return fail(timedOut, statusCode);
        return fail(classifyTransportError(error, target, this.options.connectTimeoutMs), statusCode);
      }
      if (statusCode >= 200 && statusCode < 300) {
        return finish({ outcome: 'succeeded', errorClass: null, errorMessage: null, statusCode, responseBody });
      }
      if (statusCode >= 300 && statusCode < 400) {
        const location = describeLocation(headerValue(response.headers.location), url);
        return fail(
          { errorClass: 'redirect', errorMessage: `${location} not followed (${statusCode})` },
          statusCode,
          responseBody,
        );
      }
      return fail(
        { errorClass: 'http_status', errorMessage: `receiver answered ${statusCode}` },
        statusCode,
        responseBody,
      );
    } catch (error) {
      if (deadline.signal.aborted) return fail(timedOut);
      return fail({ errorClass: 'connect', errorMessage: `the attempt failed: ${String(error)}` });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes every pool; requests still in flight finish first. */
  async close(): Promise<void> {
    this.closed = true;
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.close()));
  }

  /** The keep-alive pool for this origin and these checked addresses, made on first use. */
  private agentFor(url: URL, addresses: readonly string[], lookup: LookupFunction): Agent {
    const key = `${url.origin}|${[...addresses].sort().join(',')}`;
    const cached = this.agents.get(key);
    if (cached) {
      this.agents.delete(key);
      this.agents.set(key, cached);
      return cached;
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const agent = new Agent({
      connect: {
        lookup,
        secureContext: this.secureContext,
        timeout: this.options.connectTimeoutMs,
        // SNI and the certificate check use the URL's name; an IP literal gets no SNI (RFC 6066).
        ...(isIP(host) === 0 ? { servername: host } : {}),
      },
      // One HTTP/1.1 request per connection at a time, as receivers expect from webhook senders.
      allowH2: false,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    });
    this.agents.set(key, agent);
    if (this.agents.size > MAX_AGENTS) {
      const [oldestKey, oldest] = this.agents.entries().next().value ?? [];
      if (oldestKey !== undefined && oldest !== undefined) {
        this.agents.delete(oldestKey);
        // close() lets its in-flight requests finish; nothing waits on it here.
        oldest.close().catch(() => undefined);
      }
    }
    return agent;
  }
}
