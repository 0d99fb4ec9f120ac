/** Every individual scope of seed part 5, with what it allows (the OpenAPI document shows these). */
export const SCOPES = {
  'wallet:read': 'read wallets',
  'currency:read': 'read currencies',
  'bank:read': 'read banks and account lookups',
  'customer:read': 'read customers',
  'customer:write': 'create/update customers, KYC/KYB data, owner edits, KYB documents, submit',
  'beneficiary:read': 'read beneficiaries',
  'virtual-account:read': 'read virtual accounts and identification types',
  'virtual-account:create': 'create virtual accounts',
  'virtual-account:close': 'close virtual accounts',
  'collection:create': 'initiate fiat collections, attach customers',
  'collection:crypto:create': 'read crypto networks, initiate crypto collections',
  'collection:interac:accept': 'accept Interac money requests',
  'collection:interac:create': 'initiate Interac money requests',
  'payout:create': 'initiate payouts',
  'swap:create': 'initiate swaps',
  'transaction:read': 'read transactions',
  'fees:read': 'read fee breakdowns',
  'rates:read': 'read exchange rates',
  'file:upload': 'generate presigned upload URLs',
  'webhook:read': 'read webhook configuration',
  'webhook:write': 'create/update webhook configuration',
  'webhook:replay': 'replay webhook deliveries',
  'mock:webhook:trigger': 'trigger mock webhook simulations',
  'refund:create': 'start refunds',
  'refund:read': 'read refunds',
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/**
 * Bundles (seed part 5), usable only when creating or rotating credentials. Where the seed names a
 * bundle but not its contents, docs/decisions/0006-scope-bundles.md says why each scope is in it.
 */
export const BUNDLES = {
  'full-access': ALL_SCOPES,
  'read-only': [
    'wallet:read',
    'currency:read',
    'bank:read',
    'customer:read',
    'beneficiary:read',
    'virtual-account:read',
    'transaction:read',
    'fees:read',
    'rates:read',
    'webhook:read',
    'refund:read',
  ],
  collections: [
    'collection:create',
    'collection:crypto:create',
    'collection:interac:accept',
    'collection:interac:create',
    'refund:create',
    'refund:read',
    'transaction:read',
    'customer:read',
    'currency:read',
    'fees:read',
    'rates:read',
  ],
  payouts: [
    'payout:create',
    'beneficiary:read',
    'bank:read',
    'wallet:read',
    'transaction:read',
    'currency:read',
    'fees:read',
    'rates:read',
  ],
  'virtual-accounts': [
    'virtual-account:read',
    'virtual-account:create',
    'virtual-account:close',
    'customer:read',
    'bank:read',
    'currency:read',
    'transaction:read',
  ],
  customers: ['customer:read', 'customer:write', 'file:upload'],
} as const satisfies Record<string, readonly Scope[]>;

export type Bundle = keyof typeof BUNDLES;
export const DEFAULT_BUNDLE: Bundle = 'full-access';

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);
export const isBundle = (value: string): value is Bundle => Object.hasOwn(BUNDLES, value);

export type ScopeGrant = { ok: true; scopes: Scope[] } | { ok: false; field: 'bundles' | 'scopes'; problem: string };

/**
 * The scopes credentials get from the bundles and scopes an administrator names: their union,
 * in the seed's order. Nothing named: the default bundle.
 */
export function expandGrant(bundles: readonly string[], scopes: readonly string[]): ScopeGrant {
  const granted = new Set<Scope>();
  for (const bundle of bundles) {
    if (!isBundle(bundle)) {
      const hint = isScope(bundle) ? ` (${bundle} is a scope: list it under scopes)` : '';
      return {
        ok: false,
        field: 'bundles',
        problem: `unknown bundle ${bundle}${hint}; bundles are ${Object.keys(BUNDLES).join(', ')}`,
      };
    }
    for (const scope of BUNDLES[bundle]) granted.add(scope);
  }
  for (const scope of scopes) {
    if (!isScope(scope)) {
      const hint = isBundle(scope) ? ` (${scope} is a bundle: list it under bundles)` : '';
      return { ok: false, field: 'scopes', problem: `unknown scope ${scope}${hint}` };
    }
    granted.add(scope);
  }
  if (bundles.length === 0 && scopes.length === 0) for (const scope of BUNDLES[DEFAULT_BUNDLE]) granted.add(scope);
  return { ok: true, scopes: ALL_SCOPES.filter((scope) => granted.has(scope)) };
}

export type TokenScopeRequest = { ok: true; scopes: Scope[] } | { ok: false; problem: string };

/**
 * The `scope` parameter of a token request (seed 4.1): space-separated individual scopes, each
 * assigned to the credentials. A bundle name, an unknown or an unassigned scope is invalid_scope.
 */
export function requestedTokenScopes(scope: string | undefined, assigned: readonly string[]): TokenScopeRequest {
  if (scope === undefined) return { ok: true, scopes: [] };
  const requested = scope.split(' ').filter((s) => s !== '');
  const granted = new Set<Scope>();
  for (const name of requested) {
    if (isBundle(name)) {
      return {
        ok: false,
        problem: `${name} is a bundle; bundles are only for creating or rotating credentials, request individual scopes`,
      };
    }
    if (!isScope(name)) {
      // A common slip: OAuth 2.0 separates scopes with spaces (RFC 6749 §3.3), not commas.
      const separated = name.split(/[,;]/).filter((part) => part !== '');
      const hint =
        separated.length > 1 && separated.every(isScope)
          ? `: separate scopes with spaces, not commas (scope=${separated.join(' ')})`
          : '';
      return { ok: false, problem: `unknown scope ${name}${hint}` };
    }
    if (!assigned.includes(name)) return { ok: false, problem: `scope ${name} is not assigned to these credentials` };
    granted.add(name);
  }
  return { ok: true, scopes: ALL_SCOPES.filter((s) => granted.has(s)) };
}
