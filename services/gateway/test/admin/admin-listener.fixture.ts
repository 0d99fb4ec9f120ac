import type { AddressInfo } from 'node:net';
import { createLogger } from '@corridor/logging';
import { adminApp, type AppOptions } from '../../src/app.js';
import { fakeUnderTest, type FakeService } from '../public/route-harness.js';

export interface AdminAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * For admin route specs: the admin listener as bootstrap builds it, on a free port, over the given
 * (fake) clients and guard. `admin()` calls it with the admin token and `requestId`.
 */
export async function startAdminListener(
  clients: Partial<AppOptions['clients']>,
  adminToken: string,
  requestId: string,
  guard?: Partial<AppOptions['guard']>,
) {
  const options = {
    clients,
    guard,
    logger: createLogger('test', { level: 'silent' }),
    environment: 'sandbox',
    adminToken,
    bodyLimit: '1mb',
    dashboardUrl: 'http://dashboard.test',
  } as unknown as AppOptions;
  const server = adminApp(options).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    async admin(method: string, path: string, body?: unknown, token = adminToken): Promise<AdminAnswer> {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-request-id': requestId,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A describe's admin listener over a fake service, with fakeUnderTest's hooks: `calls` and `answers`
 * are the fake's, `admin()` calls the listener with the admin token.
 */
export function adminUnderTest<Service extends FakeService>(
  start: () => Promise<Service>,
  clientsOf: (service: Service) => Partial<AppOptions['clients']>,
  adminToken: string,
  requestId: string,
  guard?: Partial<AppOptions['guard']>,
) {
  const { service, served } = fakeUnderTest(start, (started) =>
    startAdminListener(clientsOf(started), adminToken, requestId, guard),
  );
  return {
    get calls(): Service['calls'] {
      return service().calls;
    },
    get answers(): Service['answers'] {
      return service().answers;
    },
    admin: (...args: Parameters<Awaited<ReturnType<typeof startAdminListener>>['admin']>) => served().admin(...args),
  };
}
