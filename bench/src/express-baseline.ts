import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The part of express this uses (its types are the gateway's dependency, not the bench's). */
interface BareApp {
  disable(setting: string): void;
  get(path: string, handler: (request: unknown, response: { json(body: unknown): void }) => void): void;
  listen(port: number, host: string, callback: () => void): Server;
}

/**
 * The gateway's own baseline (issue 14): a bare express app answering JSON, in a process of its
 * own like the gateway, with the express the gateway resolves (so the same version) and the same
 * settings (no ETag, no X-Powered-By). What the gateway adds to a request is its cost over this.
 */
function serve(): void {
  const gatewayRequire = createRequire(new URL('../../services/gateway/package.json', import.meta.url));
  const express = gatewayRequire('express') as () => BareApp;
  const app = express();
  app.disable('etag');
  app.disable('x-powered-by');
  app.get('/', (_request, response) => {
    response.json({ message: 'hello' });
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.(typeof address === 'object' && address ? address.port : `no port: ${String(address)}`);
  });
}

export interface ExpressBaseline {
  url: string;
  stop(): Promise<void>;
}

/** Starts the bare express server as a child process; resolves once it listens. */
export async function startExpressBaseline(): Promise<ExpressBaseline> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: unknown) =>
      typeof message === 'number' ? resolve(message) : reject(new Error(`express baseline said ${String(message)}`)),
    );
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`express baseline exited (${code}) before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

if (process.argv[2] === 'serve') serve();
