import type { IdentityContext } from '../context.js';
import type { IdentitySecrets } from '../secrets/identity-secrets.js';

/** What the member use cases need beside identity's context. */
export interface MembersContext extends IdentityContext {
  /** Seals TOTP secrets at rest. */
  secrets: IdentitySecrets;
  /** The dashboard's origin: mailed links point at `${dashboardUrl}/invitation/<token>`. */
  dashboardUrl: string;
}

/** Who makes a change: a member (and the address their request came from), or the back office. */
export interface ActorInput {
  memberId: string;
  address: string;
}

export const INVITATION_LIFETIME_MS = 72 * 60 * 60 * 1000;
export const PASSWORD_RESET_LIFETIME_MS = 60 * 60 * 1000;
