import { Command, CommanderError } from 'commander';
import { AdminApi } from './admin-api.js';
import { registerBusinessCommands } from './commands/businesses.js';
import { registerCredentialCommands } from './commands/credentials.js';
import { registerCustomerCommands } from './commands/customers.js';
import { registerDeadLetterCommands } from './commands/dead-letters.js';
import { registerLedgerCommands } from './commands/ledger.js';
import { registerListenCommand } from './commands/listen.js';
import { registerMemberCommands } from './commands/members.js';
import { registerRateCommands } from './commands/rates.js';
import { registerSandboxCommands } from './commands/sandbox.js';
import { registerWalletCommands } from './commands/wallets.js';
import { localDirectory, resolveConnection, type ConnectionFlags } from './connection.js';
import { AdminApiError } from './errors.js';
import type { CliEnvironment, CommandContext } from './command-context.js';

export function buildProgram(io: CliEnvironment): Command {
  const localDir = localDirectory(io.env);
  const context: CommandContext = {
    io,
    localDir,
    async connect(command) {
      const connection = await resolveConnection(command.optsWithGlobals<ConnectionFlags>(), io.env, localDir);
      return { api: new AdminApi(connection, io.fetch), connection };
    },
    print: (value) => io.stdout(`${JSON.stringify(value, null, 2)}\n`),
  };

  // Set before any subcommand is added: commander copies these settings into each new subcommand.
  const program = new Command('corridor')
    .description('Corridor operator tools')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage)');

  const admin = program
    .command('admin')
    .description('the back office: the gateway admin API (DESIGN.md "Admin API")')
    .option('--admin-url <url>', 'admin listener; else $CORRIDOR_ADMIN_URL, .local/sandbox.json, http://127.0.0.1:8081')
    .option('--admin-token <token>', 'bearer token; else $ADMIN_TOKEN, .local/sandbox.json, .local/admin-token');
  registerBusinessCommands(admin, context);
  registerCredentialCommands(admin, context);
  registerMemberCommands(admin, context);
  registerCustomerCommands(admin, context);
  registerRateCommands(admin, context);
  registerWalletCommands(admin, context);
  registerLedgerCommands(admin, context);
  registerDeadLetterCommands(admin, context);
  registerSandboxCommands(admin, context);
  registerListenCommand(program, context);
  return program;
}

/** Runs one command line; resolves with the process exit code. */
export async function runCli(args: string[], io: CliEnvironment): Promise<number> {
  try {
    await buildProgram(io).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed its own usage errors and help.
    if (error instanceof CommanderError) return error.exitCode;
    const message =
      error instanceof AdminApiError ? error.describe() : error instanceof Error ? error.message : String(error);
    io.stderr(`corridor: ${message}\n`);
    return 1;
  }
}
