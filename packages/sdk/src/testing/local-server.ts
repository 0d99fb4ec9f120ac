import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Answers a request: an Answer, or 'drop' to close the connection without one. */
export type Handler = (request: Received) => Answer | 'drop' | Promise<Answer | 'drop'>;

/**
 * A real HTTP server on 127.0.0.1 for the SDK's specs: the client's fetch, sockets and retries run
 * as they would against a gateway. /oauth/token issues `token-1`, `token-2`, … unless `token` says
 * otherwise; every other request goes to `handler`.
 */
export class LocalServer {
  readonly received: Received[] = [];
  tokensIssued = 0;
  token: Handler = () => ({
    status: 200,
    body: { access_token: `token-${++this.tokensIssued}`, token_type: 'Bearer', expires_in: 3600, scope: '' },
  });
  handler: Handler = () => ({ status: 404, body: { status: false, message: 'no handler', code: 'NOT_FOUND' } });

  private constructor(private readonly server: Server) {}

  static async start(): Promise<LocalServer> {
    const server = createServer();
    const local = new LocalServer(server);
    server.on('request', (req, res) => void local.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return local;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The API requests, the token requests left out. */
  get calls(): Received[] {
    return this.received.filter((request) => request.path !== '/oauth/token');
  }

  get tokenRequests(): Received[] {
    return this.received.filter((request) => request.path === '/oauth/token');
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const received: Received = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    this.received.push(received);
    const answer = await (url.pathname === '/oauth/token' ? this.token : this.handler)(received);
    if (answer === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }
}
