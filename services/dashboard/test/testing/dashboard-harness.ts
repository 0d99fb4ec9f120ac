import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccessCache } from '@corridor/access-cache';
import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { DomainError, PAYMENTS_SERVICES, Status } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { startFakeGrpcService, startFakeGrpcServices } from '@corridor/testing';
import { createClient, type RedisClientType } from 'redis';
import { dashboardApp } from '../../src/app.js';
import type { DashboardDependencies } from '../../src/dependencies.js';
import { DashboardCookies } from '../../src/http/cookies.js';
import type { Environment } from '../../src/members/roles.js';
import { SessionStore, type Clock } from '../../src/sessions/session-store.js';
import { SignInAddressLimit } from '../../src/sign-in/address-limit.js';
import { PASSWORD, TOTP_CODE, startFakeIdentity, type FakeIdentity } from './fake-identity.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface HarnessOptions {
  environment?: Environment;
  clock?: Clock;
  signInFailures?: number;
}

/** Until a spec sets a method's answer in `answers`, the fake answers UNIMPLEMENTED, naming it. */
const unanswered = (method: string) => () => {
  throw new DomainError(Status.UNIMPLEMENTED, 'UNIMPLEMENTED', `the spec gave ${method} no answer`);
};

/**
 * The dashboard served on loopback over fakes of identity, customer-kyb, payments and notification
 * (real gRPC servers) and the real Redis with a key prefix of its own, as specs and the Chromium
 * journey use it.
 */
export async function startDashboard(options: HarnessOptions = {}) {
  const identity = await startFakeIdentity();
  const customers = await startFakeGrpcService(CustomerService, unanswered);
  const kycSessions = await startFakeGrpcService(KycSessionService, unanswered);
  const payments = await startFakeGrpcServices(PAYMENTS_SERVICES, unanswered);
  const notification = await startFakeGrpcService(NotificationService, unanswered);
  const redis = createClient({ url: REDIS_URL }) as RedisClientType;
  await redis.connect();
  const prefix = `dashtest-${randomBytes(6).toString('hex')}`;
  const environment = options.environment ?? 'sandbox';
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deps: DashboardDependencies = {
    clients: {
      ...identity.clients,
      customer: customers.client,
      kycSessions: kycSessions.client,
      ...payments.clients,
      notification: notification.client,
    },
    sessions: new SessionStore(
      redis,
      prefix,
      environment,
      { idleSeconds: 1800, absoluteSeconds: 43200 },
      options.clock,
    ),
    signInLimit: new SignInAddressLimit(redis, prefix, environment, options.signInFailures ?? 20, 900),
    accessCache: new AccessCache(redis, environment, prefix),
    cookies: new DashboardCookies(false),
    environment,
    origin: base,
    apiBaseUrl: 'http://127.0.0.1:8080',
    logger: createLogger('dashboard-test', { level: 'silent' }),
  };
  server.on('request', dashboardApp(deps, { trustProxy: false, readiness: [] }));
  return {
    base,
    identity,
    customers,
    kycSessions,
    payments,
    notification,
    redis,
    prefix,
    deps,
    browser: () => new TestBrowser(base),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(keys);
      await redis.quit();
      await identity.stop();
      await Promise.all([customers.stop(), kycSessions.stop(), payments.stop(), notification.stop()]);
    },
  };
}

export type Dashboard = Awaited<ReturnType<typeof startDashboard>>;

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
}

/** A browser enough for route specs: a cookie jar, no redirects followed, the last page's CSRF token. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  last: Page | undefined;

  constructor(private readonly base: string) {}

  private async request(method: string, path: string, body?: URLSearchParams, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.base}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(body ? { body: body.toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const page: Page = {
      status: response.status,
      headers: response.headers,
      html: await response.text(),
      location: response.headers.get('location'),
    };
    this.last = page;
    return page;
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  /** The token of the last page's forms. */
  csrfToken(): string {
    const match = /name="csrf_token" value="([^"]*)"/.exec(this.last?.html ?? '');
    return match?.[1] ?? '';
  }

  /** Posts a form as a browser would: with the last page's CSRF token unless `fields` sets one. */
  post(path: string, fields: Record<string, string | string[]> = {}, headers?: Record<string, string>) {
    const body = new URLSearchParams();
    if (!('csrf_token' in fields)) body.append('csrf_token', this.csrfToken());
    for (const [name, value] of Object.entries(fields)) {
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    }
    return this.request('POST', path, body, headers);
  }

  /** Signs in as `email` (the fake's password, and its TOTP code when asked); answers the last page. */
  async signIn(email: string): Promise<Page> {
    await this.get('/sign-in');
    let page = await this.post('/sign-in', { email, password: PASSWORD });
    if (page.location === '/sign-in/totp') {
      await this.get('/sign-in/totp');
      page = await this.post('/sign-in/totp', { code: TOTP_CODE });
    }
    return page;
  }
}

export type { FakeIdentity };
