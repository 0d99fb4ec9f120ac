import { ALL_SCOPES, BUNDLES, expandGrant, requestedTokenScopes } from './index.js';

describe('scopes (seed part 5)', () => {
  it('lists the 25 individual scopes of the seed', () => {
    expect(ALL_SCOPES).toHaveLength(25);
    expect(ALL_SCOPES).toEqual(
      expect.arrayContaining([
        'customer:write',
        'webhook:replay',
        'mock:webhook:trigger',
        'refund:create',
        'refund:read',
      ]),
    );
  });

  it('the bundle → scope table of docs/decisions/0006', () => {
    expect(BUNDLES['full-access']).toEqual(ALL_SCOPES);
    // seed 5: refund:create and refund:read are in collections; refund:read is in read-only.
    expect(BUNDLES.collections).toEqual(expect.arrayContaining(['refund:create', 'refund:read']));
    expect(BUNDLES['read-only']).toContain('refund:read');
    expect(BUNDLES['read-only'].every((s) => s.endsWith(':read'))).toBe(true);
    expect(BUNDLES.customers).toEqual(['customer:read', 'customer:write', 'file:upload']);
    expect(BUNDLES.payouts).toContain('payout:create');
    expect(BUNDLES['virtual-accounts']).toEqual(
      expect.arrayContaining(['virtual-account:create', 'virtual-account:close']),
    );
  });

  describe('expandGrant', () => {
    it('defaults to full-access', () => expect(expandGrant([], [])).toEqual({ ok: true, scopes: ALL_SCOPES }));
    it('unions bundles and scopes in the seed order', () => {
      expect(expandGrant(['customers'], ['webhook:read'])).toEqual({
        ok: true,
        scopes: ['customer:read', 'customer:write', 'file:upload', 'webhook:read'],
      });
    });
    it('names an unknown bundle, and a scope given as a bundle', () => {
      expect(expandGrant(['everything'], [])).toMatchObject({
        ok: false,
        field: 'bundles',
        problem: expect.stringMatching(/unknown bundle everything/),
      });
      expect(expandGrant(['customer:read'], [])).toMatchObject({
        ok: false,
        problem: expect.stringMatching(/is a scope/),
      });
      expect(expandGrant([], ['payouts'])).toMatchObject({
        ok: false,
        field: 'scopes',
        problem: expect.stringMatching(/payouts is a bundle/),
      });
    });
  });

  describe('requestedTokenScopes (seed 4.1)', () => {
    const assigned = ['customer:read', 'customer:write'];
    it('no scope parameter: a token with no scopes', () =>
      expect(requestedTokenScopes(undefined, assigned)).toEqual({ ok: true, scopes: [] }));
    it('grants assigned individual scopes', () => {
      expect(requestedTokenScopes('customer:write  customer:read', assigned)).toEqual({
        ok: true,
        scopes: ['customer:read', 'customer:write'],
      });
    });
    it('a bundle name is invalid_scope', () =>
      expect(requestedTokenScopes('customers', assigned)).toMatchObject({
        ok: false,
        problem: expect.stringMatching(/customers is a bundle/),
      }));
    it('names the separator when scopes are joined by commas', () =>
      expect(requestedTokenScopes('customer:read,customer:write', ['customer:read', 'customer:write'])).toEqual({
        ok: false,
        problem:
          'unknown scope customer:read,customer:write: separate scopes with spaces, not commas (scope=customer:read customer:write)',
      }));

    it('an unknown scope is invalid_scope', () =>
      expect(requestedTokenScopes('customer:delete', assigned)).toMatchObject({
        ok: false,
        problem: 'unknown scope customer:delete',
      }));
    it('an unassigned scope is invalid_scope', () => {
      expect(requestedTokenScopes('payout:create', assigned)).toMatchObject({
        ok: false,
        problem: 'scope payout:create is not assigned to these credentials',
      });
    });
  });
});
