import { once } from 'node:events';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { type AddressInfo, type Socket } from 'node:net';
import { type TLSSocket } from 'node:tls';
import { verifyWebhook, WEBHOOK_ID_HEADER } from '@corridor/webhook-signature';
import { type TestCertificates } from './certificates.js';
import { eventually } from './waiting.js';

/** One request as the receiver got it, with the signature already checked. */
export interface ReceivedWebhook {
  receivedAt: Date;
  method: string;
  path: string;
  /** Lowercased names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  rawBody: string;
  webhookId: string | undefined;
  /** Whether verifyWebhook accepted it under the receiver's secret (false when none is set). */
  verified: boolean;
  verificationError?: string;
  /** The body parsed, or undefined when it is not JSON. */
  json: unknown;
  /** The client's port: two requests with the same one came over one kept-alive connection. */
  remotePort: number | undefined;
  /** The name the client sent in TLS SNI; undefined without one (an IP-literal URL). */
  tlsServername: string | undefined;
}

/**
 * What to answer: a status (with an optional body and headers), `'hang'` (read the request, never
 * answer, until stop) or `'destroy'` (reset the connection without answering).
 */
export type WebhookReply = { status: number; body?: string; headers?: Record<string, string> } | 'hang' | 'destroy';

/** A function choosing each reply, or replies used in order and then the default 200. */
export type WebhookReplyPlan = ((request: ReceivedWebhook, index: number) => WebhookReply) | readonly WebhookReply[];

export interface WebhookReceiverOptions {
  certificates: TestCertificates;
  /** A loopback address to listen on; default 127.0.0.1 (another one proves a sender used a pinned address). */
  host?: string;
  /** The signing secret to verify with; a function is read at each request (a secret known later). */
  secret?: string | (() => string | undefined);
}

const DEFAULT_REPLY: WebhookReply = {
  status: 200,
  body: '{"received":true}',
  headers: { 'content-type': 'application/json' },
};

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A platform's webhook endpoint for tests and benchmarks: HTTPS on 127.0.0.1 with a test CA's
 * certificate, recording every request and answering as told.
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  /** The TCP sockets under the TLS ones, by client port: only these can be reset (RST). */
  private readonly sockets = new Map<number | undefined, Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private secret: () => string | undefined;
  private plan: WebhookReplyPlan = [];
  private queued: WebhookReply[] = [];
  private listeningPort = 0;

  private constructor(
    private readonly server: Server,
    private readonly host: string,
    secret: WebhookReceiverOptions['secret'],
  ) {
    this.secret = typeof secret === 'function' ? secret : () => secret;
  }

  static async start(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
    const server = createServer({ key: options.certificates.keyPem, cert: options.certificates.certPem });
    const host = options.host ?? '127.0.0.1';
    const receiver = new WebhookReceiver(server, host, options.secret);
    server.on('connection', (socket: Socket) => {
      const clientPort = socket.remotePort;
      receiver.sockets.set(clientPort, socket);
      socket.once('close', () => receiver.sockets.delete(clientPort));
    });
    // A client that refuses the certificate is what some tests want; nothing to report.
    server.on('tlsClientError', () => undefined);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void receiver.receive(request, response);
    });
    server.listen(0, host);
    await once(server, 'listening');
    receiver.listeningPort = (server.address() as AddressInfo).port;
    return receiver;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** Connections open right now (a sender that gave up must have closed its own). */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** `https://<host>:<port><path>`, the host being the address listened on. */
  url(path = '/hooks'): string {
    return `https://${this.host}:${this.port}${path}`;
  }

  respondWith(plan: WebhookReplyPlan): void {
    this.plan = plan;
    this.queued = typeof plan === 'function' ? [] : [...plan];
  }

  setSecret(secret: string): void {
    this.secret = () => secret;
  }

  /** Waits until `predicate` matches `count` requests; returns them. */
  async waitFor(
    predicate: (request: ReceivedWebhook) => boolean,
    count = 1,
    timeoutMs = 30_000,
  ): Promise<ReceivedWebhook[]> {
    return eventually(() => {
      const matching = this.requests.filter(predicate);
      if (matching.length < count)
        throw new Error(`saw ${matching.length} of ${count} matching webhooks (${this.requests.length} in all)`);
      return matching;
    }, timeoutMs);
  }

  /** Closes the server, ends hanging requests and destroys every connection. */
  async stop(): Promise<void> {
    const closed = this.server.listening ? once(this.server, 'close') : Promise.resolve();
    this.server.close();
    for (const response of this.hanging) response.destroy();
    this.hanging.clear();
    for (const socket of this.sockets.values()) socket.destroy();
    await closed;
  }

  private async receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of request) chunks.push(chunk as Buffer);
    } catch {
      return; // the sender went away mid-body: nothing was delivered
    }
    const rawBody = Buffer.concat(chunks);
    const headers = flatHeaders(request);
    const received: ReceivedWebhook = {
      receivedAt: new Date(),
      method: request.method ?? '',
      path: request.url ?? '',
      headers,
      rawBody: rawBody.toString('utf8'),
      webhookId: headers[WEBHOOK_ID_HEADER],
      verified: false,
      json: parseJson(rawBody.toString('utf8')),
      remotePort: request.socket.remotePort,
      tlsServername: (request.socket as TLSSocket).servername || undefined,
    };
    const secret = this.secret();
    if (secret === undefined) {
      received.verificationError = 'the receiver has no signing secret to verify with';
    } else {
      try {
        verifyWebhook({ secret, rawBody, headers: request.headers });
        received.verified = true;
      } catch (error) {
        received.verificationError = error instanceof Error ? error.message : String(error);
      }
    }
    const index = this.requests.push(received) - 1;
    let reply: WebhookReply;
    try {
      reply = typeof this.plan === 'function' ? this.plan(received, index) : (this.queued.shift() ?? DEFAULT_REPLY);
    } catch (error) {
      reply = { status: 500, body: `the test's reply plan threw: ${String(error)}` };
    }

    if (reply === 'hang') {
      this.hanging.add(response);
      response.once('close', () => this.hanging.delete(response));
    } else if (reply === 'destroy') {
      const tcp = this.sockets.get(request.socket.remotePort);
      if (tcp) tcp.resetAndDestroy();
      else request.socket.destroy();
    } else {
      response.writeHead(reply.status, reply.headers ?? {});
      response.end(reply.body ?? '');
    }
  }
}
