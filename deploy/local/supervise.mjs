// Keeps one of `npm start`'s services running: a crash is followed by a restart, with backoff.
//
//   node deploy/local/supervise.mjs NAME [--child-pid-file FILE] -- COMMAND [ARG...]
//
// The child writes to the supervisor's stdout and stderr (the service's log), where the supervisor adds a
// line each time it starts the child and each time the child exits. Restarted: an exit with a signal the
// supervisor did not send, or a non-zero code. Not restarted: exit code 0 (the service stopped as asked)
// or 78 (EX_CONFIG: its configuration is refused, and a restart cannot change that); the supervisor then
// exits with that code. SIGTERM or SIGINT to the supervisor is a clean stop: forwarded to the child, waited
// for (SIGKILL after 10 s), never restarted. Plain Node, no dependency: it runs before anything is built.
//
// Its death takes the child with it, also a SIGKILL that lets it forward nothing: the child gets one end
// of a pipe as fd 3 (CORRIDOR_SUPERVISOR_FD) and, when it is Node, the preload exit-with-supervisor.mjs
// (NODE_OPTIONS), which stops it once that pipe closes. The child's environment also names it
// (CORRIDOR_SUPERVISED_AS=NAME), which lets services.sh tell its orphan from an unrelated process that
// reuses its pid (docs/decisions/0036-local-replicas-and-supervision.md).
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync, writeSync } from 'node:fs';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;
/** A child that stayed up this long was healthy: its crash starts the backoff again from the first delay. */
const HEALTHY_AFTER_MS = 30_000;
const STOP_GRACE_MS = 10_000;
const EX_CONFIG = 78;
const PRELOAD = new URL('./exit-with-supervisor.mjs', import.meta.url).href;

/**
 * The wait before restarting a child that ran `uptimeMs`, after `streak` quick crashes in a row before it:
 * 0.5 s, 1 s, 2 s, … doubling up to 15 s. Returns the new streak with the delay.
 */
export function backoff(streak, uptimeMs) {
  const next = uptimeMs >= HEALTHY_AFTER_MS ? 1 : streak + 1;
  return { streak: next, delayMs: Math.min(FIRST_DELAY_MS * 2 ** (next - 1), MAX_DELAY_MS) };
}

/**
 * The child's environment: the supervisor's, plus the pipe's fd, the name it runs as, and the preload
 * first in NODE_OPTIONS (a file URL: no space to quote).
 */
export function childEnvironment(name, env) {
  const nodeOptions = [`--import=${PRELOAD}`, env.NODE_OPTIONS].filter(Boolean).join(' ');
  return { ...env, CORRIDOR_SUPERVISOR_FD: '3', CORRIDOR_SUPERVISED_AS: name, NODE_OPTIONS: nodeOptions };
}

/** Whether an exit the supervisor did not ask for is a crash (restarted) rather than the child's own choice. */
export function isCrash(code, signal) {
  return signal !== null || (code !== 0 && code !== EX_CONFIG);
}

function supervise(argv) {
  const separator = argv.indexOf('--');
  const [name, ...options] = separator < 0 ? [] : argv.slice(0, separator);
  const [command, ...args] = argv.slice(separator + 1);
  const pidFile = options[0] === '--child-pid-file' ? options[1] : undefined;
  if (!name || !command || options.length !== (pidFile ? 2 : 0)) {
    process.stderr.write('usage: node supervise.mjs NAME [--child-pid-file FILE] -- COMMAND [ARG...]\n');
    process.exit(2);
  }
  // Synchronous, so the last line is in the log even when process.exit follows at once.
  const say = (line) => writeSync(1, `${new Date().toISOString()} supervisor: ${line}\n`);
  let child;
  let restartTimer;
  let stopping = false;
  let streak = 0;
  let restarts = 0;

  const start = () => {
    const startedAt = Date.now();
    // fd 3: the pipe whose end-of-file tells the child its supervisor is gone. Nothing is written on it.
    child = spawn(command, args, {
      stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
      env: childEnvironment(name, process.env),
    });
    child.stdio[3]?.on('error', () => {});
    child.once('error', (error) => {
      say(`could not start ${name}: ${error.message}`);
      process.exit(1);
    });
    if (child.pid === undefined) return; // 'error' follows
    if (pidFile) writeFileSync(pidFile, `${child.pid}\n`);
    say(`${name} started (pid ${child.pid})`);
    child.once('exit', (code, signal) => {
      child = undefined;
      if (pidFile) rmSync(pidFile, { force: true });
      const uptimeMs = Date.now() - startedAt;
      const ended = `(${signal ? `signal ${signal}` : `code ${code}`}) after ${(uptimeMs / 1000).toFixed(1)} s`;
      if (stopping) {
        say(`${name} stopped ${ended}`);
        process.exit(0);
      }
      if (!isCrash(code, signal)) {
        say(`${name} exited ${ended}; not restarting`);
        process.exit(code);
      }
      const next = backoff(streak, uptimeMs);
      streak = next.streak;
      restarts += 1;
      say(`${name} exited ${ended}; restarting in ${next.delayMs / 1000} s (restart ${restarts})`);
      restartTimer = setTimeout(start, next.delayMs);
    });
  };

  const stop = (signal) => {
    stopping = true;
    clearTimeout(restartTimer);
    if (!child) {
      say(`${name} stopped before its restart`);
      process.exit(0);
    }
    child.kill(signal);
    setTimeout(() => child?.kill('SIGKILL'), STOP_GRACE_MS).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  start();
}

// Imported (by its spec) it only exports; run, it supervises.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) supervise(process.argv.slice(2));
