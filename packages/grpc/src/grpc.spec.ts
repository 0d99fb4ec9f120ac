import { Health, HealthCheckResponse_ServingStatus } from '@corridor/contracts/grpc/health/v1/health_pb';
import { createLogger } from '@corridor/logging';
import { connect, createServer, type AddressInfo } from 'node:net';
import { createClient } from './client.js';
import { DomainError, Status } from './errors.js';
import { createHealthService } from './health.js';
import { registration, startGrpcServer, type RunningGrpcServer } from './server.js';
import { callerMetadata } from './metadata.js';

const silent = createLogger('test', { level: 'silent' });

/** The error Node gives a connection to a port nothing listens on. */
async function refusedConnection(): Promise<Error> {
  const listener = createServer();
  const port = await new Promise<number>((resolve) =>
    listener.listen(0, '127.0.0.1', () => resolve((listener.address() as AddressInfo).port)),
  );
  await new Promise((resolve) => listener.close(resolve));
  return new Promise((resolve) => connect(port, '127.0.0.1').on('error', resolve));
}

describe('gRPC adapter over a real loopback connection', () => {
  let server: RunningGrpcServer;
  const health = createHealthService(['corridor.test.v1.Thing']);
  const seenCallers: unknown[] = [];

  // A second registration of the same descriptor under test behaviours: errors and slowness.
  const behaviours = registration(Health, {
    async check(request, context) {
      seenCallers.push(context.caller);
      if (request.service === 'invalid')
        throw new DomainError(Status.INVALID_ARGUMENT, 'BAD_THING', 'thing is bad', { thing: ['is bad'] });
      if (request.service === 'invalid-unicode')
        throw new DomainError(Status.INVALID_ARGUMENT, 'VALIDATION_FAILED', 'ñame is not a recognised field', {
          ñame: ['is not a recognised field'],
          'owners.0.street': ['must be 9 to 255 characters; got “Rue…”'],
        });
      if (request.service === 'huge') {
        // A platform's 64 KiB key and value quoted back, in more fields than fit (issue 18's corpus).
        const big = 'x'.repeat(65_536);
        const errors = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${i}${big}`, [`got ${big}`]]));
        throw new DomainError(Status.INVALID_ARGUMENT, 'VALIDATION_FAILED', `${big} is wrong`, errors);
      }
      if (request.service === 'slow') await new Promise((resolve) => setTimeout(resolve, 500));
      if (request.service === 'crash') throw new Error('secret internal detail');
      if (request.service === 'database-away') {
        // A real refused connection: nothing listens on the port the server was given back.
        throw await refusedConnection();
      }
      if (request.service === 'nul-stored') {
        // As pg reports PostgreSQL refusing NUL in a jsonb value.
        throw Object.assign(new Error('unsupported Unicode escape sequence \\u0000 secret'), { code: '22P05' });
      }
      return { status: HealthCheckResponse_ServingStatus.SERVING };
    },
  });

  beforeAll(async () => {
    server = await startGrpcServer({ address: '127.0.0.1:0', services: [health.registration], logger: silent });
  });
  afterAll(async () => {
    await server.shutdown(1_000);
  });

  it('serves grpc.health.v1 Check through the generated descriptor', async () => {
    const client = createClient(Health, { address: `127.0.0.1:${server.port}` });
    try {
      expect((await client.check({ service: '' })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      health.setStatus('corridor.test.v1.Thing', HealthCheckResponse_ServingStatus.NOT_SERVING);
      expect((await client.check({ service: 'corridor.test.v1.Thing' })).status).toBe(
        HealthCheckResponse_ServingStatus.NOT_SERVING,
      );
    } finally {
      client.close();
    }
  });

  it('answers NOT_FOUND for an unknown service name, as a DomainError with its reason', async () => {
    const client = createClient(Health, { address: `127.0.0.1:${server.port}` });
    try {
      await expect(client.check({ service: 'nope' })).rejects.toMatchObject({
        status: Status.NOT_FOUND,
        reason: 'SERVICE_UNKNOWN',
      });
    } finally {
      client.close();
    }
  });

  describe('errors, deadlines and metadata', () => {
    let other: RunningGrpcServer;
    beforeAll(async () => {
      other = await startGrpcServer({ address: '127.0.0.1:0', services: [behaviours], logger: silent });
    });
    afterAll(() => other.shutdown(1_000));

    it('carries a domain error with its field errors to the client', async () => {
      const client = createClient(Health, { address: `127.0.0.1:${other.port}` });
      try {
        const error = await client.check({ service: 'invalid' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({
          status: Status.INVALID_ARGUMENT,
          reason: 'BAD_THING',
          message: 'thing is bad',
          fieldErrors: { thing: ['is bad'] },
        });
      } finally {
        client.close();
      }
    });

    it('carries field errors whose paths and texts are not ASCII (platforms choose the JSON keys)', async () => {
      const client = createClient(Health, { address: `127.0.0.1:${other.port}` });
      try {
        const error = await client.check({ service: 'invalid-unicode' }).catch((e: unknown) => e);
        expect(error).toMatchObject({
          status: Status.INVALID_ARGUMENT,
          message: 'ñame is not a recognised field',
          fieldErrors: {
            ñame: ['is not a recognised field'],
            'owners.0.street': ['must be 9 to 255 characters; got “Rue…”'],
          },
        });
      } finally {
        client.close();
      }
    });

    it('bounds what an error puts in its trailers, so a huge one fails alone and not the connection', async () => {
      const client = createClient(Health, { address: `127.0.0.1:${other.port}` });
      try {
        const [huge, ...neighbours] = await Promise.allSettled([
          client.check({ service: 'huge' }),
          ...Array.from({ length: 5 }, () => client.check({ service: 'slow' })),
        ]);
        expect(neighbours.every((n) => n.status === 'fulfilled')).toBe(true);
        const error = (huge as PromiseRejectedResult).reason as DomainError;
        expect(error.status).toBe(Status.INVALID_ARGUMENT);
        expect(error.message.length).toBeLessThanOrEqual(500);
        const paths = Object.keys(error.fieldErrors ?? {});
        expect(paths.length).toBeGreaterThan(1);
        expect(paths.every((path) => path.length <= 200)).toBe(true);
        expect(error.fieldErrors?.['(body)']?.[0]).toMatch(/^and \d+ more fields have problems/);
      } finally {
        client.close();
      }
    });

    it('hides unexpected errors behind INTERNAL', async () => {
      const client = createClient(Health, { address: `127.0.0.1:${other.port}` });
      try {
        const error = (await client.check({ service: 'crash' }).catch((e: unknown) => e)) as DomainError;
        expect(error.status).toBe(Status.INTERNAL);
        expect(error.message).not.toContain('secret');
      } finally {
        client.close();
      }
    });

    it('answers UNAVAILABLE when a dependency is away, and INVALID_ARGUMENT when the database refuses a value (issue 18)', async () => {
      const client = createClient(Health, { address: `127.0.0.1:${other.port}` });
      try {
        const away = (await client.check({ service: 'database-away' }).catch((e: unknown) => e)) as DomainError;
        expect(away).toMatchObject({
          status: Status.UNAVAILABLE,
          message: 'a dependency is unavailable; retry shortly',
        });
        const refused = (await client.check({ service: 'nul-stored' }).catch((e: unknown) => e)) as DomainError;
        expect(refused).toMatchObject({ status: Status.INVALID_ARGUMENT, reason: 'VALIDATION_FAILED' });
        expect(refused.message).not.toContain('secret');
      } finally {
        client.close();
      }
    });

    it('puts a deadline on every call', async () => {
      const client = createClient(Health, { address: `127.0.0.1:${other.port}`, defaultTimeoutMs: 100 });
      try {
        await expect(client.check({ service: 'slow' })).rejects.toMatchObject({ status: Status.DEADLINE_EXCEEDED });
        await expect(client.check({ service: 'slow' }, { timeoutMs: 2_000 })).resolves.toBeDefined();
      } finally {
        client.close();
      }
    });

    it('passes the caller context as metadata', async () => {
      const client = createClient(Health, { address: `127.0.0.1:${other.port}` });
      try {
        const metadata = callerMetadata({
          businessId: 'b-1',
          scopes: ['customer:read', 'customer:write'],
          requestId: 'r-1',
          environment: 'sandbox',
        });
        await client.check({ service: 'x' }, { metadata });
        expect(seenCallers.at(-1)).toEqual({
          businessId: 'b-1',
          credentialId: undefined,
          scopes: ['customer:read', 'customer:write'],
          environment: 'sandbox',
          requestId: 'r-1',
        });
      } finally {
        client.close();
      }
    });
  });

  it('reports UNAVAILABLE when nothing listens', async () => {
    const client = createClient(Health, { address: '127.0.0.1:1', defaultTimeoutMs: 500 });
    try {
      const error = (await client.check({ service: '' }).catch((e: unknown) => e)) as DomainError;
      expect([Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED]).toContain(error.status);
    } finally {
      client.close();
    }
  });
});

describe('a client of several replicas', () => {
  it('balances its calls round-robin across every replica in the list, and keeps calling the others while one is down', async () => {
    const seen: string[] = [];
    const replica = (name: string) =>
      startGrpcServer({
        address: '127.0.0.1:0',
        services: [
          registration(Health, {
            async check() {
              seen.push(name);
              return { status: HealthCheckResponse_ServingStatus.SERVING };
            },
          }),
        ],
        logger: silent,
      });
    const [one, two] = await Promise.all([replica('one'), replica('two')]);
    const client = createClient(Health, { address: `127.0.0.1:${one.port},127.0.0.1:${two.port}` });
    try {
      for (let call = 0; call < 20; call++) await client.check({ service: '' });
      expect(seen.filter((name) => name === 'one').length).toBeGreaterThanOrEqual(5);
      expect(seen.filter((name) => name === 'two').length).toBeGreaterThanOrEqual(5);

      await one.shutdown(0);
      seen.length = 0;
      for (let call = 0; call < 10; call++) await client.check({ service: '' });
      expect(seen).toEqual(Array<string>(10).fill('two'));
    } finally {
      client.close();
      await Promise.all([one.shutdown(0), two.shutdown(0)]);
    }
  });
});
