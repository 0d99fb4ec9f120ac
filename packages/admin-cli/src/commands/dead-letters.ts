import type { Command } from 'commander';
import { segment } from '../admin-api.js';
import type { CommandContext } from '../command-context.js';

interface ListOptions {
  status: string;
  perPage?: string;
  cursor?: string;
}

/**
 * `corridor admin dead-letters list|show|retry <service> [id]` (decision 0023): the messages
 * notification's or payments' consumer could not decode. The gateway checks the service and the query.
 */
export function registerDeadLetterCommands(admin: Command, context: CommandContext): void {
  const deadLetters = admin
    .command('dead-letters')
    .description('messages a consumer (notification, payments) could not decode, kept to be retried');

  deadLetters
    .command('list')
    .description('newest first, without their bytes (GET /admin/dead-letters/{service})')
    .argument('<service>', 'notification or payments')
    .option('--status <status>', 'unresolved, resolved, or "all"', 'unresolved')
    .option('--per-page <n>', 'dead letters a page, 1 to 100 (15 by default)')
    .option('--cursor <cursor>', 'meta.next_cursor or meta.prev_cursor of a page listed before')
    .action(async (service: string, options: ListOptions, command: Command) => {
      const query = new URLSearchParams();
      if (options.status !== 'all') query.set('status', options.status);
      if (options.perPage !== undefined) query.set('per_page', options.perPage);
      if (options.cursor !== undefined) query.set('cursor', options.cursor);
      const { api } = await context.connect(command);
      const search = query.size > 0 ? `?${query.toString()}` : '';
      context.print(await api.call('GET', `/admin/dead-letters/${segment(service)}${search}`));
    });

  deadLetters
    .command('show')
    .description('one dead letter with its key, value and headers in base64 (GET /admin/dead-letters/{service}/{id})')
    .argument('<service>', 'notification or payments')
    .argument('<id>', 'dead letter id')
    .action(async (service: string, id: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('GET', `/admin/dead-letters/${segment(service)}/${segment(id)}`));
    });

  deadLetters
    .command('retry')
    .description(
      'decode it again and apply its event; exits 1 while it still cannot be decoded (POST /admin/dead-letters/{service}/{id}/retry)',
    )
    .argument('<service>', 'notification or payments')
    .argument('<id>', 'dead letter id')
    .action(async (service: string, id: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('POST', `/admin/dead-letters/${segment(service)}/${segment(id)}/retry`));
    });
}
