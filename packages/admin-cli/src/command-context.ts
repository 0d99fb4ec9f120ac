import type { Command } from 'commander';
import type { AdminApi } from './admin-api.js';
import type { Connection } from './connection.js';
import type { Fetch } from './http.js';

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliEnvironment {
  env: Record<string, string | undefined>;
  fetch: Fetch;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** What every command's action needs. */
export interface CommandContext {
  io: CliEnvironment;
  localDir: string;
  /** The admin API as this command's flags, the environment and `.local/` say. */
  connect(command: Command): Promise<{ api: AdminApi; connection: Connection }>;
  /** A command's result: JSON on stdout, for people and for jq alike. */
  print(value: unknown): void;
}
