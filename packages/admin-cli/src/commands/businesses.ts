import type { Command } from 'commander';
import { segment } from '../admin-api.js';
import type { CommandContext } from '../command-context.js';
import { CliError } from '../errors.js';
import { parseBooleanFlag, parseIpAllowlist, parseRateLimits, type RateLimits } from '../options.js';

interface CreateOptions {
  name: string;
  apiEnabled?: boolean;
  kybMinimalAllowed?: boolean;
}

interface UpdateOptions {
  apiEnabled?: boolean;
  kybMinimalAllowed?: boolean;
  ipAllowlist?: string[];
  rateLimits?: RateLimits;
}

/** `corridor admin businesses create|get|update`. */
export function registerBusinessCommands(admin: Command, context: CommandContext): void {
  const businesses = admin.command('businesses').description('platform businesses');

  businesses
    .command('create')
    .description('create a platform business (POST /admin/businesses)')
    .requiredOption('--name <name>', 'the business name')
    // Both forms declared: commander then leaves the value undefined when neither is given,
    // and the API's own default applies.
    .option('--api-enabled', 'it may call the public API (the default)')
    .option('--no-api-enabled', 'create it with the public API switched off')
    .option('--kyb-minimal-allowed', 'it may onboard customers with MINIMAL KYB')
    .action(async (options: CreateOptions, command: Command) => {
      const { api } = await context.connect(command);
      context.print(
        await api.call('POST', '/admin/businesses', {
          name: options.name,
          api_enabled: options.apiEnabled,
          kyb_minimal_allowed: options.kybMinimalAllowed,
        }),
      );
    });

  businesses
    .command('get')
    .description('read a business (GET /admin/businesses/{id})')
    .argument('<id>', 'business id')
    .action(async (id: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('GET', `/admin/businesses/${segment(id)}`));
    });

  businesses
    .command('update')
    .description("change a business's flags (PATCH /admin/businesses/{id})")
    .argument('<id>', 'business id')
    .option('--api-enabled <true|false>', 'switch its public API on or off', parseBooleanFlag)
    .option('--kyb-minimal-allowed <true|false>', 'allow MINIMAL KYB onboarding', parseBooleanFlag)
    .option('--ip-allowlist <list>', 'comma-separated addresses or CIDRs; "" lifts the restriction', parseIpAllowlist)
    .option('--rate-limits <per_minute/per_hour>', 'request budget, e.g. 120/1500', parseRateLimits)
    .action(async (id: string, options: UpdateOptions, command: Command) => {
      const body = {
        api_enabled: options.apiEnabled,
        kyb_minimal_allowed: options.kybMinimalAllowed,
        ip_allowlist: options.ipAllowlist,
        rate_limits: options.rateLimits,
      };
      if (Object.values(body).every((value) => value === undefined))
        throw new CliError(
          'nothing to change: give --api-enabled, --kyb-minimal-allowed, --ip-allowlist or --rate-limits',
        );
      const { api } = await context.connect(command);
      context.print(await api.call('PATCH', `/admin/businesses/${segment(id)}`, body));
    });
}
