import type { AccessCache } from '@corridor/access-cache';
import type { Logger } from '@corridor/logging';
import type { PageClients } from './clients.js';
import type { DashboardCookies } from './http/cookies.js';
import type { Environment } from './members/roles.js';
import type { SessionStore } from './sessions/session-store.js';
import type { SignInAddressLimit } from './sign-in/address-limit.js';

/** Everything the pages use, built once by bootstrap (or by a spec, over fakes). */
export interface DashboardDependencies {
  clients: PageClients;
  sessions: SessionStore;
  signInLimit: SignInAddressLimit;
  /** The gateways' cache of credential generations: rotation and revocation must reach it. */
  accessCache: AccessCache;
  cookies: DashboardCookies;
  environment: Environment;
  /** DASHBOARD_ORIGIN: forms must come from it. */
  origin: string;
  /** API_BASE_URL: the same environment's API, shown to members. */
  apiBaseUrl: string;
  logger: Logger;
}
