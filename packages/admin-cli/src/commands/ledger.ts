import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { CliError } from '../errors.js';
import { isRecord } from '../http.js';

/** `corridor admin ledger check`. */
export function registerLedgerCommands(admin: Command, context: CommandContext): void {
  admin
    .command('ledger')
    .description('the double-entry ledger')
    .command('check')
    .description('check every invariant of the books; exits 1 when one is broken (GET /admin/ledger/check)')
    .action(async (_options: object, command: Command) => {
      const { api } = await context.connect(command);
      const report = await api.call('GET', '/admin/ledger/check');
      context.print(report);
      // Scripts and cron jobs read the exit code: a broken book is a failure, not a report.
      if (!isRecord(report) || report.ok !== true) {
        const count = isRecord(report) && Array.isArray(report.violations) ? report.violations.length : 'unknown';
        throw new CliError(`the ledger check found violations (${count}); see the report above`);
      }
    });
}
