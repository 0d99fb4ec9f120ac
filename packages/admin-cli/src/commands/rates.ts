import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { parseRate } from '../options.js';

/** `corridor admin rates list|set`: the mid-rates payments quotes from. */
export function registerRateCommands(admin: Command, context: CommandContext): void {
  const rates = admin.command('rates').description('FX mid-rates (payments derives each reverse pair)');

  rates
    .command('list')
    .description('every mid-rate, set or derived, and the default spread (GET /admin/rates)')
    .action(async (_options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('GET', '/admin/rates'));
    });

  rates
    .command('set')
    .description('set the mid-rate of a pair: units of <quote> per unit of <base> (POST /admin/rates)')
    .argument('<base>', 'base currency, e.g. USD')
    .argument('<quote>', 'quote currency, e.g. NGN')
    .argument('<rate>', 'a decimal string, e.g. 1550.25', parseRate)
    .action(async (base: string, quote: string, rate: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('POST', '/admin/rates', { base_currency: base, quote_currency: quote, rate }));
    });
}
