import {
  deadLetterSchemaSql,
  OutboxMessage,
  outboxSchemaSql,
  processedEventRetentionSql,
  processedEventSchemaSql,
} from '@corridor/bus';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { Migration, openMigratedDatabase, type ServiceDatabaseOptions } from '@corridor/db';
import { createClient, LIVENESS, ServingStatus, type ServiceRegistration } from '@corridor/grpc';
import {
  createTestDatabase,
  eventually,
  KAFKA_BROKERS,
  POSTGRES_ADMIN_URL,
  query,
  type TestDatabase,
} from '@corridor/testing';
import { Writable } from 'node:stream';
import { fixedClock } from './clock.js';
import { startService, type RunningService, type StartServiceOptions } from './start-service.js';

class Migration20260101000000Outbox extends Migration {
  override up(): void {
    for (const sql of outboxSchemaSql) this.addSql(sql);
    for (const sql of [...processedEventSchemaSql, ...processedEventRetentionSql, ...deadLetterSchemaSql]) {
      this.addSql(sql);
    }
  }
}

/** A tiny producing and consuming service: the outbox, processed_event and dead_letter tables, and one method of identity's contract that needs nothing. */
const tinyDatabase = (databaseUrl: string): ServiceDatabaseOptions => ({
  databaseUrl,
  entities: [OutboxMessage],
  migrations: [{ name: 'Migration20260101000000Outbox', class: Migration20260101000000Outbox }],
  logger: () => undefined,
});
const signingKeys: ServiceRegistration = {
  service: IdentityService,
  implementation: { getSigningKeys: async () => ({ keys: [], issuer: 'tiny', audience: 'tiny-api' }) },
};

function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('startService (real PostgreSQL and Kafka)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('runtime');
  });

  afterAll(() => db.drop());

  const start = (
    log = capturedLog(),
    telemetry = { shutdown: async () => undefined },
    extra: Partial<StartServiceOptions> = {},
  ) =>
    startService({
      name: 'tiny',
      log: { level: 'info', destination: log.destination },
      database: tinyDatabase(db.url),
      kafkaBrokers: KAFKA_BROKERS,
      outbox: { enabled: true, pollIntervalMs: 200 },
      clock: fixedClock('2026-11-21T10:00:00.000Z'),
      telemetry,
      signals: [],
      ...extra,
    });

  it('refuses to start while the database has pending migrations, naming them, and leaves no connection open', async () => {
    await expect(start()).rejects.toThrow('tiny database has pending migrations: Migration20260101000000Outbox');
    // Client sessions only (an autovacuum worker visiting the new database is PostgreSQL's), and
    // within a few seconds: a closed session's backend leaves pg_stat_activity a moment after its
    // client hung up, a leaked one never does.
    await eventually(async () => {
      const [open] = await query<{ n: number }>(
        db.url,
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      expect(open).toEqual({ n: 0 });
    }, 5_000);
  });

  describe('once migrated', () => {
    let service: RunningService | undefined;

    beforeAll(async () => {
      const orm = await openMigratedDatabase(tinyDatabase(db.url));
      await orm.close();
    });

    afterEach(async () => {
      await service?.stop('test over').catch(() => undefined);
      service = undefined;
    });

    it('serves its gRPC services with health SERVING, starts its work, then logs "<name> listening"', async () => {
      const log = capturedLog();
      service = await start(log);
      expect(service.clock().toISOString()).toBe('2026-11-21T10:00:00.000Z');
      let listeningWhenWorkStarted: boolean | undefined;
      const { port } = await service.serve({
        address: '127.0.0.1:0',
        services: [signingKeys],
        startWork: async () => {
          listeningWhenWorkStarted = log.lines.some((line) => line.msg === 'tiny listening');
        },
        logFields: { topics: ['tiny.events'] },
      });

      expect(listeningWhenWorkStarted).toBe(false);
      expect(log.lines.filter((line) => line.msg === 'tiny listening')).toEqual([
        expect.objectContaining({ service: 'tiny', level: 'info', port, relay: true, topics: ['tiny.events'] }),
      ]);
      const health = createClient(Health, { address: `127.0.0.1:${port}` });
      const identity = createClient(IdentityService, { address: `127.0.0.1:${port}` });
      try {
        expect((await health.check({ service: '' })).status).toBe(ServingStatus.SERVING);
        expect((await health.check({ service: IdentityService.typeName })).status).toBe(ServingStatus.SERVING);
        await expect(health.check({ service: 'corridor.other.v1.OtherService' })).rejects.toMatchObject({
          reason: 'SERVICE_UNKNOWN',
        });
        expect(await identity.getSigningKeys({})).toMatchObject({ issuer: 'tiny', audience: 'tiny-api' });
      } finally {
        health.close();
        identity.close();
      }
    });

    it('reports "" and each service NOT_SERVING while its database refuses connections, liveness SERVING, and ready again after', async () => {
      const log = capturedLog();
      service = await start(log);
      const { port } = await service.serve({ address: '127.0.0.1:0', services: [signingKeys] });
      const health = createClient(Health, { address: `127.0.0.1:${port}`, defaultTimeoutMs: 2_000 });
      const statuses = async () =>
        Promise.all(
          ['', IdentityService.typeName, LIVENESS].map(async (name) => (await health.check({ service: name })).status),
        );
      // The shared server stays up for everyone else: only this database stops taking connections.
      const admin = (allow: boolean) =>
        query(POSTGRES_ADMIN_URL, `alter database ${db.name} with allow_connections ${allow}`);
      try {
        expect(await statuses()).toEqual([ServingStatus.SERVING, ServingStatus.SERVING, ServingStatus.SERVING]);
        await admin(false);
        await query(POSTGRES_ADMIN_URL, 'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
          db.name,
        ]);
        await eventually(async () =>
          expect(await statuses()).toEqual([
            ServingStatus.NOT_SERVING,
            ServingStatus.NOT_SERVING,
            ServingStatus.SERVING,
          ]),
        );
        expect(log.lines).toContainEqual(
          expect.objectContaining({
            level: 'warn',
            msg: 'tiny not ready: database unavailable',
            dependency: 'database',
          }),
        );
        await admin(true);
        const back = Date.now();
        await eventually(async () =>
          expect(await statuses()).toEqual([ServingStatus.SERVING, ServingStatus.SERVING, ServingStatus.SERVING]),
        );
        expect(Date.now() - back).toBeLessThan(5_000);
      } finally {
        await admin(true);
        health.close();
      }
    });

    it('stops in the given order: periodic tasks, work while gRPC still answers, gRPC, clients, database, telemetry', async () => {
      const log = capturedLog();
      const order: string[] = [];
      service = await start(log, {
        shutdown: async () => {
          order.push(`telemetry (database open: ${String(await service?.orm.isConnected())})`);
        },
      });
      const { port } = await service.serve({ address: '127.0.0.1:0', services: [signingKeys] });
      const health = createClient(Health, { address: `127.0.0.1:${port}`, defaultTimeoutMs: 1_000 });
      const grpcAnswers = () =>
        health.check({ service: '' }).then(
          () => 'gRPC up',
          () => 'gRPC down',
        );
      let ticks = 0;
      service.every('tick', 5, () => {
        ticks += 1;
      });
      const step = (name: string) => async () => void order.push(`${name} (${await grpcAnswers()})`);
      service.onStop('event consumer', step('event consumer'), 'before-server');
      service.onStop('identity client', step('identity client'));
      service.onStop('delivery worker', step('delivery worker'), 'before-server');
      service.onStop('object storage', step('object storage'), 'after-server');

      await until(() => ticks > 0);
      await service.stop('SIGTERM');
      health.close();

      expect(order).toEqual([
        'event consumer (gRPC up)',
        'delivery worker (gRPC up)',
        'identity client (gRPC down)',
        'object storage (gRPC down)',
        'telemetry (database open: false)',
      ]);
      const ticksAtStop = ticks;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ticks).toBe(ticksAtStop);
      expect(log.lines).toContainEqual(expect.objectContaining({ msg: 'tiny stopping', signal: 'SIGTERM' }));
      expect(() => service?.onStop('late', () => undefined)).toThrow('already stopping');
    });

    it('prunes processed events older than the retention and resolved dead letters past theirs, by the service clock, and keeps the others', async () => {
      // The service's clock reads 2026-11-21T10:00Z: with 7 days, the cutoff is 2026-11-14T10:00Z.
      await query(
        db.url,
        `insert into processed_event (consumer, event_id, processed_at) values
           ('tiny', gen_random_uuid(), '2026-11-06T10:00:00Z'),
           ('tiny', gen_random_uuid(), '2026-11-14T09:00:00Z'),
           ('tiny', gen_random_uuid(), '2026-11-15T10:00:00Z'),
           ('tiny', gen_random_uuid(), '2026-11-20T10:00:00Z')`,
      );
      // Dead letters: resolved 31 and 29 days before the clock, and one never resolved (decision 0023).
      await query(
        db.url,
        `insert into dead_letter (id, consumer, topic, partition, message_offset, error, received_at, resolved_at, event_id)
         values (gen_random_uuid(), 'tiny', 't', 0, 1, 'old', '2026-10-01T10:00:00Z', '2026-10-21T10:00:00Z', gen_random_uuid()),
                (gen_random_uuid(), 'tiny', 't', 0, 2, 'recent', '2026-10-01T10:00:00Z', '2026-10-23T10:00:00Z', gen_random_uuid()),
                (gen_random_uuid(), 'tiny', 't', 0, 3, 'open', '2026-09-01T10:00:00Z', null, null)`,
      );
      const log = capturedLog();
      service = await start(log, undefined, {
        eventConsumer: { processedEventRetentionMs: 7 * 86_400_000, sweepIntervalMs: 20 },
      });
      await eventually(async () => {
        const rows = await query<{ processed_at: Date }>(
          db.url,
          'select processed_at from processed_event order by processed_at',
        );
        expect(rows.map((row) => row.processed_at.toISOString())).toEqual([
          '2026-11-15T10:00:00.000Z',
          '2026-11-20T10:00:00.000Z',
        ]);
      }, 5_000);
      expect(log.lines).toContainEqual(
        expect.objectContaining({ msg: 'processed events past retention deleted', deleted: 2 }),
      );
      await eventually(async () => {
        const rows = await query<{ error: string }>(db.url, 'select error from dead_letter order by error');
        expect(rows.map((row) => row.error)).toEqual(['open', 'recent']);
      }, 5_000);
      expect(log.lines).toContainEqual(
        expect.objectContaining({ msg: 'resolved dead letters past retention deleted', deleted: 1 }),
      );
    });

    it('a step that fails is logged, every later step still runs, and stop rejects naming it', async () => {
      const log = capturedLog();
      service = await start(log);
      await service.serve({ address: '127.0.0.1:0', services: [] });
      const closed: string[] = [];
      service.onStop('flaky client', () => {
        throw new Error('socket already gone');
      });
      service.onStop('storage', () => void closed.push('storage'));

      const stopped = service.stop('SIGINT');
      expect(service.stop('SIGTERM')).toBe(stopped);
      await expect(stopped).rejects.toThrow('tiny stopped with failures: flaky client');
      expect(closed).toEqual(['storage']);
      expect(await service.orm.isConnected()).toBe(false);
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'error',
          step: 'flaky client',
          err: expect.objectContaining({ message: 'socket already gone' }),
        }),
      );
    });
  });
});

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
