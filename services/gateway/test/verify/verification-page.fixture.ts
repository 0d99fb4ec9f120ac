import type { AddressInfo } from 'node:net';
import { createLogger } from '@corridor/logging';
import express from 'express';
import { requestId } from '../../src/http/common.js';
import { routeNotFound } from '../../src/http/errors.js';
import { startFakeKycSessionService } from '../public/kyc-sessions/fake-kyc-session-service.js';
import { verificationPageRouter } from '../../src/verify/verification-page-router.js';

export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * For the verification page's specs: its router on a free port, mounted as the public listener
 * mounts it (request ids first, the API's 404 after), over a fake KycSessionService on loopback.
 */
export async function serveVerificationPage(environment: 'sandbox' | 'production' = 'sandbox') {
  const service = await startFakeKycSessionService();
  const app = express();
  app.use(requestId);
  app.use(
    verificationPageRouter({
      clients: { kycSessions: service.client },
      environment,
      logger: createLogger('test', { level: 'silent' }),
      uploadOrigin: 'http://127.0.0.1:9000',
    }),
  );
  app.use(routeNotFound);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    service,
    async open(path: string, init: RequestInit = {}): Promise<PageAnswer> {
      const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
    /** A JSON POST as the page's script sends it; `raw` sends the body as given. */
    async post(path: string, body?: unknown, raw?: { body: string; contentType: string }): Promise<JsonAnswer> {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': raw?.contentType ?? 'application/json' },
        ...(raw ? { body: raw.body } : body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, unknown>,
      };
    },
    async stop(): Promise<void> {
      await new Promise((resolve) => server.close(resolve));
      await service.stop();
    },
  };
}
