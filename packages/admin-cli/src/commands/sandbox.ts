import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { sandboxFilePath } from '../sandbox/sandbox-file.js';
import type { MoneySeedOutcome } from '../sandbox/money.js';
import { DEFAULT_DASHBOARD_URL, seedSandboxOwner } from '../sandbox/owner.js';
import { DEFAULT_BASE_URL, SANDBOX_BUSINESS_NAME, seedSandbox } from '../sandbox/seed.js';

interface SeedCommandOptions {
  baseUrl?: string;
}

interface SeedOwnerCommandOptions {
  dashboardUrl?: string;
}

/** 1000000 → "10000.00": the sandbox currencies all have exponent 2. */
const major = (minor: number) => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** One line for the terminal of `npm start`: what the seed changed in payments. */
export function describeMoney(money: MoneySeedOutcome): string {
  const rates = money.rates_set.length > 0 ? `set rates ${money.rates_set.join(', ')}` : 'rates already set';
  const funded = money.wallets_funded.map((funding) => `${major(funding.amount)} ${funding.currency}`);
  return `${rates}; ${funded.length > 0 ? `funded ${funded.join(', ')}` : 'no wallet empty, none funded'}`;
}

/** `corridor admin sandbox seed`, run by `npm start`. */
export function registerSandboxCommands(admin: Command, context: CommandContext): void {
  const sandbox = admin.command('sandbox').description('the local sandbox business that npm start provides');

  sandbox
    .command('seed')
    .description('keep .local/sandbox.json while its credentials work, else create "Sandbox Platform" and rewrite it')
    .option('--base-url <url>', `public API to check the credentials on; else $CORRIDOR_BASE_URL, ${DEFAULT_BASE_URL}`)
    .action(async (options: SeedCommandOptions, command: Command) => {
      const { api, connection } = await context.connect(command);
      const file = sandboxFilePath(context.localDir);
      const outcome = await seedSandbox({
        api,
        adminToken: connection.adminToken,
        baseUrl: options.baseUrl || context.io.env.CORRIDOR_BASE_URL || DEFAULT_BASE_URL,
        file,
        fetchImpl: context.io.fetch,
      });
      const { sandbox: seeded } = outcome;
      context.io.stderr(
        outcome.reused
          ? `kept ${file}: ${outcome.reason}\n`
          : `created business "${SANDBOX_BUSINESS_NAME}" (${seeded.business_id}) and credentials ${seeded.client_id} (${outcome.reason}); wrote ${file}\n`,
      );
      context.io.stderr(`${describeMoney(outcome.money)}\n`);
      // The secrets stay in the 0600 file: this output ends up in logs.
      context.print({
        reused: outcome.reused,
        file,
        base_url: seeded.base_url,
        admin_url: seeded.admin_url,
        business_id: seeded.business_id,
        client_id: seeded.client_id,
        ...outcome.money,
      });
    });

  sandbox
    .command('seed-owner')
    .description(
      "keep .local/sandbox.json's dashboard owner while it is an active member of the sandbox business, else invite one and accept the invitation in the dashboard with a generated password",
    )
    .option(
      '--dashboard-url <url>',
      `the dashboard whose invitation form accepts it; else $CORRIDOR_DASHBOARD_URL, ${DEFAULT_DASHBOARD_URL}`,
    )
    .action(async (options: SeedOwnerCommandOptions, command: Command) => {
      const { api } = await context.connect(command);
      const file = sandboxFilePath(context.localDir);
      const outcome = await seedSandboxOwner({
        api,
        dashboardUrl: options.dashboardUrl || context.io.env.CORRIDOR_DASHBOARD_URL || DEFAULT_DASHBOARD_URL,
        file,
        fetchImpl: context.io.fetch,
      });
      const { sandbox: seeded } = outcome;
      context.io.stderr(
        outcome.reused
          ? `kept the dashboard owner ${seeded.dashboard_email} (${outcome.reason})\n`
          : `invited ${seeded.dashboard_email} as owner of ${seeded.business_id} and accepted it in the dashboard (${outcome.reason}); wrote ${file}\n`,
      );
      // The password stays in the 0600 file: this output ends up in logs.
      context.print({
        reused: outcome.reused,
        file,
        dashboard_url: seeded.dashboard_url,
        dashboard_email: seeded.dashboard_email,
      });
    });
}
