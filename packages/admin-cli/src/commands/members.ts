import type { Command } from 'commander';
import { segment } from '../admin-api.js';
import type { CommandContext } from '../command-context.js';

interface InviteOptions {
  role?: string;
}

interface ListOptions {
  perPage?: string;
  cursor?: string;
}

/**
 * `corridor admin members invite|list <business_id>` (decision 0028): the back office invites a
 * business's first dashboard owner; the gateway and identity check the email and the role.
 */
export function registerMemberCommands(admin: Command, context: CommandContext): void {
  const members = admin.command('members').description('people who sign in to a business’s dashboard');

  members
    .command('invite')
    .description(
      'invite a person (owner by default); the mail carries a single-use link valid 72 h, which the sandbox also prints as invitation_url',
    )
    .argument('<business_id>', 'the business they join')
    .argument('<email>', 'their email address')
    .option('--role <role>', 'owner, admin, developer or viewer (default owner)')
    .action(async (businessId: string, email: string, options: InviteOptions, command: Command) => {
      const { api } = await context.connect(command);
      const body = { email, ...(options.role === undefined ? {} : { role: options.role }) };
      context.print(await api.call('POST', `/admin/businesses/${segment(businessId)}/members`, body));
    });

  members
    .command('list')
    .description('the business’s members, newest first (GET /admin/businesses/{id}/members)')
    .argument('<business_id>', 'the business')
    .option('--per-page <n>', 'members a page, 1 to 100 (15 by default)')
    .option('--cursor <cursor>', 'meta.next_cursor or meta.prev_cursor of a page listed before')
    .action(async (businessId: string, options: ListOptions, command: Command) => {
      const query = new URLSearchParams();
      if (options.perPage !== undefined) query.set('per_page', options.perPage);
      if (options.cursor !== undefined) query.set('cursor', options.cursor);
      const search = query.size > 0 ? `?${query.toString()}` : '';
      const { api } = await context.connect(command);
      context.print(await api.call('GET', `/admin/businesses/${segment(businessId)}/members${search}`));
    });
}
