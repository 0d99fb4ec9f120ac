import { createServer } from 'node:http';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';

/**
 * The baseline: the least an HTTP answer costs on this machine with this Node. It runs in a worker
 * thread, so it has an event loop of its own like the gateway has a process of its own, and
 * autocannon (on the main thread) does not steal its time in a way the gateway would not see.
 */
function serve(): void {
  const body = JSON.stringify({ message: 'hello' });
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    parentPort?.postMessage(typeof address === 'object' && address ? address.port : `no port: ${String(address)}`);
  });
}

export interface BaselineServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the hello-world server in a worker of this process; resolves once it listens. */
export async function startBaselineServer(): Promise<BaselineServer> {
  const worker = new Worker(new URL(import.meta.url));
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: unknown) =>
      typeof message === 'number' ? resolve(message) : reject(new Error(`baseline server said ${String(message)}`)),
    );
    worker.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      await worker.terminate();
    },
  };
}

if (!isMainThread) serve();
