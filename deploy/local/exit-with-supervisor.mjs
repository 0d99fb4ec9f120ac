// A preload (node --import) that ends a supervised service when its supervisor dies, whatever killed it
// (SIGKILL included): no service of `npm start` is left running without the supervisor that
// `npm stop` signals (issue 36 part 5; docs/decisions/0036-local-replicas-and-supervision.md).
//
// deploy/local/supervise.mjs gives its child one end of a pipe as fd 3 and names it in
// CORRIDOR_SUPERVISOR_FD. Nothing is ever written on it: the kernel closes the supervisor's end when the
// supervisor exits, however it exits, and this end then reads end-of-file. The service is sent SIGTERM
// (its own graceful shutdown), and SIGKILL if it has not exited after a grace.
//
// Started without a supervisor (no CORRIDOR_SUPERVISOR_FD), it does nothing: the service runs as always.
// Plain Node, no dependency, no change to any service's code.
import { Socket } from 'node:net';
import { setTimeout } from 'node:timers';

/** How long the service has to stop by itself after its SIGTERM (the supervisor's own grace is 10 s). */
const GRACE_MS = 10_000;

const fd = Number(process.env.CORRIDOR_SUPERVISOR_FD);
// Only this process watches the pipe: a process the service starts gets neither the variables nor the fd.
delete process.env.CORRIDOR_SUPERVISOR_FD;
delete process.env.CORRIDOR_SUPERVISED_AS;
if (process.env.NODE_OPTIONS?.includes('exit-with-supervisor.mjs')) {
  const rest = process.env.NODE_OPTIONS.replace(/--import(?:=|\s+)"?[^"\s]*exit-with-supervisor\.mjs"?/, '').trim();
  if (rest) process.env.NODE_OPTIONS = rest;
  else delete process.env.NODE_OPTIONS;
}

if (Number.isInteger(fd) && fd > 2) {
  let orphaned = false;
  const orphan = () => {
    if (orphaned) return;
    orphaned = true;
    process.stderr.write(
      `${new Date().toISOString()} exit-with-supervisor: the supervisor is gone; stopping (SIGTERM)\n`,
    );
    // unref: a service that stops by itself before the grace ends is not held up by this timer.
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  };
  let pipe;
  try {
    pipe = new Socket({ fd, readable: true, writable: false });
  } catch (error) {
    // No such fd: not started by supervise.mjs after all (the variable was inherited); nothing to watch.
    process.stderr.write(`exit-with-supervisor: fd ${fd} cannot be watched (${error.message}); not watching\n`);
  }
  if (pipe) {
    pipe.on('data', () => {}); // nothing is written; reading is what lets end-of-file arrive
    pipe.on('end', orphan);
    pipe.on('close', orphan);
    pipe.on('error', orphan);
    // The pipe alone never keeps the service's process alive.
    pipe.unref();
  }
}
