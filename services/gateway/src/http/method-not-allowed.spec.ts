import type { AddressInfo } from 'node:net';
import { createLogger } from '@corridor/logging';
import express from 'express';
import { PUBLIC_ROUTES } from '../public/routes.js';
import { errorHandler, routeNotFound } from './errors.js';
import { methodNotAllowed } from './route-table.js';

// issue 18: DELETE /api/external/whoami answered 404, as if the path did not exist.
describe('a known path asked with a method it does not have (RFC 9110 15.5.6)', () => {
  let base: string;
  let close: () => Promise<unknown>;

  beforeAll(async () => {
    const app = express();
    app.use(methodNotAllowed(PUBLIC_ROUTES));
    app.use(routeNotFound);
    app.use(errorHandler(createLogger('test', { level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(resolve));
  });
  afterAll(() => close());

  it.each([
    ['DELETE', '/api/external/whoami', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/api/external/customer', 'POST, GET, HEAD, OPTIONS'],
    ['DELETE', '/api/external/customer/0b7c2a4e-8f1d-4c3a-9e2b-5d6f7a8b9c0d', 'GET, PUT, HEAD, OPTIONS'],
  ])('%s %s is 405 with Allow: %s and the error body', async (method, path, allow) => {
    const response = await fetch(`${base}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({
      status: false,
      code: 'METHOD_NOT_ALLOWED',
      message: `${method} is not allowed on ${path}; use ${allow}`,
    });
  });

  // schemathesis: Allow listed PUT, the method of the sibling template …/document/{document}.
  it('a concrete path has only its own methods, as OpenAPI matches it before a template', async () => {
    const path = '/api/external/customer/0b7c2a4e-8f1d-4c3a-9e2b-5d6f7a8b9c0d/document/presigned-url';
    const options = await fetch(`${base}${path}`, { method: 'OPTIONS' });
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await fetch(`${base}${path}`, { method: 'PUT' })).status).toBe(405);
  });

  it('OPTIONS is 204 with the same Allow; an unknown path is still 404', async () => {
    const options = await fetch(`${base}/api/external/whoami`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await fetch(`${base}/api/external/nothing-here`, { method: 'DELETE' })).status).toBe(404);
  });
});
