import type { WindowUsage } from '../auth/access-guard.js';
import type { RouteContext } from './routes.js';

const window = (usage: WindowUsage) => ({
  limit: usage.limit,
  remaining: Math.max(0, usage.limit - usage.used),
  reset_seconds: usage.resetSeconds,
});

/** The first call a platform makes to check its set-up (issue 3 item 7). */
export async function whoami({ res, auth }: RouteContext): Promise<void> {
  const { caller, minute, hour } = auth;
  res.json({
    message: 'authenticated',
    data: {
      business_id: caller.businessId,
      environment: caller.environment,
      client_id: caller.clientId,
      scopes: caller.scopes,
      token_expires_at: new Date(caller.expiresAt * 1000).toISOString(),
      rate_limits: { per_minute: window(minute), per_hour: window(hour) },
    },
  });
}
