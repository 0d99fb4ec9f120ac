import type { Command } from 'commander';
import { segment } from '../admin-api.js';
import type { CommandContext } from '../command-context.js';
import { parseDirection, parseMinorAmount, type Direction } from '../options.js';

interface AdjustOptions {
  amount: number;
  direction: Direction;
  reason: string;
}

/** `corridor admin wallets list|adjust`. */
export function registerWalletCommands(admin: Command, context: CommandContext): void {
  const wallets = admin.command('wallets').description("a business's wallets and back-office adjustments");

  wallets
    .command('list')
    .description("a business's wallets with their balances (GET /admin/businesses/{id}/wallets)")
    .argument('<business_id>', 'the business')
    .action(async (businessId: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('GET', `/admin/businesses/${segment(businessId)}/wallets`));
    });

  wallets
    .command('adjust')
    .description('credit or debit a wallet: an ADJUSTMENT transaction with its reason on the ledger')
    .argument('<business_id>', 'the business')
    .argument('<currency>', 'the wallet, e.g. USD')
    .requiredOption('--amount <minor_units>', 'minor units: 1000000 is 10,000.00 USD', parseMinorAmount)
    .requiredOption('--direction <credit|debit>', 'credit adds to the wallet, debit takes from it', parseDirection)
    .requiredOption('--reason <text>', 'why, for the audit trail')
    .action(async (businessId: string, currency: string, options: AdjustOptions, command: Command) => {
      const { api } = await context.connect(command);
      const path = `/admin/businesses/${segment(businessId)}/wallets/${segment(currency)}/adjustments`;
      context.print(
        await api.call('POST', path, { amount: options.amount, direction: options.direction, reason: options.reason }),
      );
    });
}
