import type { AddressInfo } from 'node:net';
import { callerMetadata } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { Metadata } from '@grpc/grpc-js';
import express from 'express';
import { jsonBody } from '../http/common.js';
import { errorHandler } from '../http/errors.js';
import { requestFingerprint } from '@corridor/idempotency/request-key';
import { idempotentCallSettings } from './idempotency-key.js';

describe('the Idempotency-Key at the gateway', () => {
  describe('the call settings of a POST, over real HTTP', () => {
    let base: string;
    let server: ReturnType<express.Express['listen']>;
    /** Whether the pretend service replays: its response metadata says so. */
    let replayed = false;

    beforeAll(async () => {
      const app = express();
      app.post('/api/external/customer/:customer/submit', ...jsonBody('1mb'), (req, res) => {
        const call = idempotentCallSettings(req, res, '/api/external/customer/{customer}/submit', callerMetadata({}));
        const answered = new Metadata();
        if (replayed) answered.set('idempotent-replayed', 'true');
        call.onResponseMetadata?.(answered);
        res.json({
          key: call.metadata?.get('idempotency-key')[0] ?? null,
          fingerprint: call.metadata?.get('idempotency-fingerprint')[0] ?? null,
          hook: call.onResponseMetadata !== undefined,
        });
      });
      app.use(errorHandler(createLogger('test', { level: 'silent' })));
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));
    beforeEach(() => (replayed = false));

    const post = (path: string, headers: Record<string, string>, body = '{"a":1}') =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    it('forwards no key without the header, and no replay hook', async () => {
      const response = await post('/api/external/customer/c1/submit', {});
      expect(await response.json()).toEqual({ key: null, fingerprint: null, hook: false });
    });

    it('forwards the key and the fingerprint of the decoded path and parsed body', async () => {
      const response = await post('/api/external/customer/%63%31/submit', { 'Idempotency-Key': 'k-1' }, '{ "a" : 1 }');
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      expect(await response.json()).toEqual({
        key: 'k-1',
        fingerprint: requestFingerprint('POST', '/api/external/customer/c1/submit', { a: 1 }),
        hook: true,
      });
    });

    it('answers Idempotent-Replayed: true when the service says it replayed', async () => {
      replayed = true;
      const response = await post('/api/external/customer/c1/submit', { 'Idempotency-Key': 'k-2' });
      expect(response.headers.get('idempotent-replayed')).toBe('true');
    });

    it.each([
      ['empty', '', /header is empty/],
      ['too long', 'k'.repeat(256), /is 256 characters long, more than 255/],
      ['with a space', 'two words', /not visible ASCII/],
      ['not ASCII', Buffer.from('clé', 'utf8').toString('latin1'), /not visible ASCII/],
    ])('refuses a key %s with 400 IDEMPOTENCY_KEY_INVALID naming the header', async (_, key, problem) => {
      const response = await post('/api/external/customer/c1/submit', { 'Idempotency-Key': key });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('IDEMPOTENCY_KEY_INVALID');
      expect(body.message).toMatch(/^the Idempotency-Key header /);
      expect(body.message).toMatch(problem);
    });

    it('accepts 255 visible ASCII characters, punctuation included', async () => {
      const key = `${'!~'.repeat(127)}Z`;
      const response = await post('/api/external/customer/c1/submit', { 'Idempotency-Key': key });
      expect(((await response.json()) as { key: string }).key).toBe(key);
    });
  });
});
