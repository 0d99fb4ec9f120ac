import type { AddressInfo } from 'node:net';
import { createLogger } from '@corridor/logging';
import express from 'express';
import { errorHandler, HttpError, retryAfterWhenUnavailable, sendError } from './errors.js';

// Issue 37: a 503 RATE_LIMITER_UNAVAILABLE came without Retry-After; every 503 now says when to retry.
describe('every 503 carries Retry-After', () => {
  let base: string;
  let close: () => Promise<unknown>;

  beforeAll(async () => {
    const app = express();
    app.use(retryAfterWhenUnavailable);
    app.get('/thrown', () => {
      throw new HttpError(503, 'RATE_LIMITER_UNAVAILABLE', 'cannot check rate limits');
    });
    app.get('/sent', (_req, res) => sendError(res, 503, 'NOT_READY', 'not ready: redis unavailable'));
    app.get('/page', (_req, res) => void res.status(503).type('html').send('<p>try again</p>'));
    app.get('/own', (_req, res) => void res.status(503).set('retry-after', '30').end());
    app.get('/ok', (_req, res) => void res.json({ status: true }));
    app.get('/limited', (_req, res) => sendError(res, 429, 'RATE_LIMITED', 'slow down'));
    app.use(errorHandler(createLogger('test', { level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(resolve));
  });
  afterAll(() => close());

  it.each([
    ['/thrown', 503, '2'],
    ['/sent', 503, '2'],
    ['/page', 503, '2'],
    ['/own', 503, '30'],
    ['/ok', 200, null],
    ['/limited', 429, null],
  ])('%s answers %i with Retry-After %s', async (path, status, retryAfter) => {
    const response = await fetch(`${base}${path}`);
    expect([response.status, response.headers.get('retry-after')]).toEqual([status, retryAfter]);
  });
});
