import type { Command } from 'commander';
import { segment } from '../admin-api.js';
import type { CommandContext } from '../command-context.js';
import { collect } from '../options.js';

interface ScopeOptions {
  bundle?: string[];
  scope?: string[];
}

/** Absent lists stay absent: identity then applies its default (create) or keeps the scopes (rotate). */
const scopeSelection = (options: ScopeOptions) => ({
  ...(options.bundle ? { bundles: options.bundle } : {}),
  ...(options.scope ? { scopes: options.scope } : {}),
});

const withScopeOptions = (command: Command) =>
  command
    .option('--bundle <bundle>', 'a scope bundle, e.g. full-access (repeatable)', collect)
    .option('--scope <scope>', 'an individual scope, e.g. customer:read (repeatable)', collect);

/** `corridor admin credentials create|rotate|revoke|get`. */
export function registerCredentialCommands(admin: Command, context: CommandContext): void {
  const credentials = admin.command('credentials').description('OAuth client credentials of a business');

  withScopeOptions(
    credentials
      .command('create')
      .description('new client credentials; the secret is shown once (default bundle full-access)')
      .argument('<business_id>', 'the business they belong to'),
  ).action(async (businessId: string, options: ScopeOptions, command: Command) => {
    const { api } = await context.connect(command);
    context.print(
      await api.call('POST', `/admin/businesses/${segment(businessId)}/credentials`, scopeSelection(options)),
    );
  });

  withScopeOptions(
    credentials
      .command('rotate')
      .description('a new secret (and optionally new scopes); the old secret and its tokens stop working at once')
      .argument('<client_id>', 'the credentials to rotate'),
  ).action(async (clientId: string, options: ScopeOptions, command: Command) => {
    const { api } = await context.connect(command);
    context.print(await api.call('POST', `/admin/credentials/${segment(clientId)}/rotate`, scopeSelection(options)));
  });

  credentials
    .command('revoke')
    .description('revoke credentials and every token minted from them')
    .argument('<client_id>', 'the credentials to revoke')
    .action(async (clientId: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('DELETE', `/admin/credentials/${segment(clientId)}`));
    });

  credentials
    .command('get')
    .description('read credentials: business, scopes, revoked (never the secret)')
    .argument('<client_id>', 'the credentials to read')
    .action(async (clientId: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('GET', `/admin/credentials/${segment(clientId)}`));
    });
}
