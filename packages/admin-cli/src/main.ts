#!/usr/bin/env node
import { runCli } from './cli.js';

// exitCode, not exit(): stdout is a pipe for `| jq`, and exit() could cut its last write short.
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  fetch: (url, init) => fetch(url, init),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
