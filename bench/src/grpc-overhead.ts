import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Health } from '../../packages/contracts/dist/gen/grpc/health/v1/health_pb.js';
import { createClient, createHealthService, startGrpcServer } from '../../packages/grpc/dist/index.js';
import { createLogger } from '../../packages/logging/dist/index.js';
import type { LoadSettings, Measurement } from './load.js';

/**
 * Issue 14's gRPC phase: what `@corridor/grpc` (typed client, server wrapper, protobuf-es
 * serialization) costs over grpc-js itself. Both serve grpc.health.v1.Health/Check from one child
 * process, each on its own port; this process calls them in turn with the same concurrency.
 * The bare pair passes pre-encoded bytes through grpc-js (no protobuf, no promises, no metadata).
 */

/** The grpc-js the shared package resolves (a dependency of @corridor/grpc, not of the bench). */
interface MethodDefinition {
  path: string;
  requestStream: false;
  responseStream: false;
  requestSerialize(value: Buffer): Buffer;
  requestDeserialize(bytes: Buffer): Buffer;
  responseSerialize(value: Buffer): Buffer;
  responseDeserialize(bytes: Buffer): Buffer;
}
type UnaryCallback = (error: Error | null, response?: Buffer) => void;
interface GrpcJs {
  Server: new () => {
    addService(definition: Record<string, MethodDefinition>, handlers: Record<string, unknown>): void;
    bindAsync(address: string, credentials: unknown, callback: (error: Error | null, port: number) => void): void;
  };
  ServerCredentials: { createInsecure(): unknown };
  credentials: { createInsecure(): unknown };
  Client: new (
    address: string,
    credentials: unknown,
  ) => {
    makeUnaryRequest(
      path: string,
      serialize: (value: Buffer) => Buffer,
      deserialize: (bytes: Buffer) => Buffer,
      request: Buffer,
      callback: UnaryCallback,
    ): unknown;
    close(): void;
  };
}
const grpcJs = createRequire(new URL('../../packages/grpc/package.json', import.meta.url))('@grpc/grpc-js') as GrpcJs;

const CHECK_PATH = `/${Health.typeName}/Check`;
/** HealthCheckResponse { status: SERVING }: field 1, varint 1. */
const SERVING = Buffer.from([0x08, 0x01]);
const EMPTY_REQUEST = Buffer.alloc(0);
const bytes = (value: Buffer) => value;
const bareDefinition: Record<string, MethodDefinition> = {
  check: {
    path: CHECK_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  },
};

async function serve(): Promise<void> {
  const bare = new grpcJs.Server();
  bare.addService(bareDefinition, { check: (_call: unknown, callback: UnaryCallback) => callback(null, SERVING) });
  const barePort = await new Promise<number>((resolve, reject) =>
    bare.bindAsync('127.0.0.1:0', grpcJs.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  const corridor = await startGrpcServer({
    address: '127.0.0.1:0',
    services: [createHealthService([]).registration],
    logger: createLogger('grpc-bench', { level: 'silent' }),
  });
  process.send?.({ barePort, corridorPort: corridor.port });
}

export interface GrpcPair {
  /** One call of each: resolves with the call's answer, rejects when it failed. */
  bareCall(): Promise<unknown>;
  corridorCall(): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startGrpcPair(): Promise<GrpcPair> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ports = await new Promise<{ barePort: number; corridorPort: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { barePort: number; corridorPort: number }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`gRPC servers exited (${code}) before listening`)));
  });
  const bare = new grpcJs.Client(`127.0.0.1:${ports.barePort}`, grpcJs.credentials.createInsecure());
  const corridor = createClient(Health, { address: `127.0.0.1:${ports.corridorPort}` });
  return {
    bareCall: () =>
      new Promise((resolve, reject) =>
        bare.makeUnaryRequest(CHECK_PATH, bytes, bytes, EMPTY_REQUEST, (error, response) =>
          error ? reject(error) : resolve(response),
        ),
      ),
    corridorCall: () => corridor.check({ service: '' }),
    async stop() {
      bare.close();
      corridor.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);

/**
 * Closed-loop load as autocannon makes it: `connections` callers, each calling again once answered,
 * for `seconds`; the figures in the HTTP phases' shape (a failed call counts as an error).
 */
export async function measureCalls(call: () => Promise<unknown>, settings: LoadSettings): Promise<Measurement> {
  const latencies: number[] = [];
  let errors = 0;
  const startedAt = performance.now();
  const endAt = startedAt + settings.seconds * 1000;
  const caller = async () => {
    while (performance.now() < endAt) {
      const sentAt = performance.now();
      try {
        await call();
        latencies.push(performance.now() - sentAt);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: settings.connections }, caller));
  const seconds = (performance.now() - startedAt) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(latencies.length / seconds),
    latencyP50Ms: Number(percentile(sorted, 50).toFixed(2)),
    latencyP99Ms: Number(percentile(sorted, 99).toFixed(2)),
    non2xx: 0,
    errors,
    totalRequests: latencies.length + errors,
    statusCodes: { OK: latencies.length },
  };
}

if (process.argv[2] === 'serve') await serve();
