import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { ALL_SCOPES, BUNDLES, type Scope } from '@corridor/scopes';

/** The dashboard's roles (decision 0028), in the words members read. */
export type RoleName = 'owner' | 'admin' | 'developer' | 'viewer';
export type Environment = 'sandbox' | 'production';

export const ROLE_NAMES: readonly RoleName[] = ['owner', 'admin', 'developer', 'viewer'];

const ROLE_OF_NAME: Record<RoleName, MemberRole> = {
  owner: MemberRole.OWNER,
  admin: MemberRole.ADMIN,
  developer: MemberRole.DEVELOPER,
  viewer: MemberRole.VIEWER,
};

export const isRoleName = (value: string): value is RoleName => Object.hasOwn(ROLE_OF_NAME, value);
export const memberRoleOf = (name: RoleName): MemberRole => ROLE_OF_NAME[name];

export function roleNameOf(role: MemberRole): RoleName | undefined {
  return ROLE_NAMES.find((name) => ROLE_OF_NAME[name] === role);
}

/** What a page or a form may do; each route names the one it needs and the server checks it. */
export type Capability =
  /** See the business, its keys (never a secret), its members. */
  | 'read'
  /** Create, rotate and revoke API keys of this environment. */
  | 'manage_keys'
  /** Invite, change the role of and remove members. */
  | 'manage_members'
  /** Read the audit log: who changed what, from which address. */
  | 'read_audit'
  /** Register and change webhook URLs, replay deliveries, send sandbox mock events. */
  | 'manage_webhooks'
  /** Move money from the dashboard: start a refund of a collection. */
  | 'move_money'
  /** The sandbox's simulations (incoming transfers, money request outcomes, verdicts); none in production. */
  | 'sandbox_tools';

/**
 * decision 0028: a viewer changes nothing; a developer manages webhooks and sandbox tools (so the
 * sandbox's keys) but not production keys or members; admins and owners everything. The audit log
 * names members' addresses, so only those who manage members read it.
 */
export function rolesAllowed(capability: Capability, environment: Environment): readonly RoleName[] {
  switch (capability) {
    case 'read':
      return ROLE_NAMES;
    case 'manage_keys':
      return environment === 'sandbox' ? ['owner', 'admin', 'developer'] : ['owner', 'admin'];
    case 'manage_members':
    case 'read_audit':
      return ['owner', 'admin'];
    case 'manage_webhooks':
      return ['owner', 'admin', 'developer'];
    case 'move_money':
      return environment === 'sandbox' ? ['owner', 'admin', 'developer'] : ['owner', 'admin'];
    case 'sandbox_tools':
      return environment === 'sandbox' ? ['owner', 'admin', 'developer'] : [];
  }
}

export const may = (role: RoleName, capability: Capability, environment: Environment): boolean =>
  rolesAllowed(capability, environment).includes(role);

const DEVELOPER_WRITES: readonly Scope[] = ['webhook:write', 'webhook:replay'];
/** In the sandbox a developer also drives the simulations and refunds, whose money is play money. */
const DEVELOPER_SANDBOX_WRITES: readonly Scope[] = [
  'virtual-account:create',
  'collection:create',
  'collection:crypto:create',
  'collection:interac:accept',
  'customer:write',
  'refund:create',
];

/**
 * The scopes a member's calls carry in caller metadata: what their role may do through the API's
 * vocabulary, so services that check scopes treat a member as they would a key with that reach.
 */
export function scopesOf(role: RoleName, environment: Environment): Scope[] {
  if (role === 'owner' || role === 'admin') return [...ALL_SCOPES];
  const granted = new Set<Scope>(BUNDLES['read-only']);
  if (role === 'developer') {
    for (const scope of DEVELOPER_WRITES) granted.add(scope);
    if (environment === 'sandbox') {
      granted.add('mock:webhook:trigger');
      for (const scope of DEVELOPER_SANDBOX_WRITES) granted.add(scope);
    }
  }
  return ALL_SCOPES.filter((scope) => granted.has(scope));
}

/** "owner or admin", "owner, admin or developer": the roles a forbidden page names. */
export function rolesInWords(roles: readonly RoleName[]): string {
  if (roles.length <= 1) return roles.join('');
  return `${roles.slice(0, -1).join(', ')} or ${roles.at(-1) ?? ''}`;
}
