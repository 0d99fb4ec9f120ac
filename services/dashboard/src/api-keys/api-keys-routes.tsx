import { DomainError, isUnimplemented, notFound, Status } from '@corridor/grpc';
import type { Credential } from '@corridor/contracts/corridor/identity/v1/credential_pb';
import { expandGrant } from '@corridor/scopes';
import type { Business } from '@corridor/contracts/corridor/identity/v1/business_pb';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { notFoundPage } from '../http/error-pages.js';
import { listField, queryText, textField } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { sendPage } from '../layout/render.js';
import { memberCall, memberMay, memberOf, requireMember } from '../members/member-access.js';
import { recordAudit } from '../members/record-audit.js';
import { CreateKeyForm, KeyList, RevokeKeyForm, RotateKeyForm, SecretShownOnce } from './api-keys-pages.js';
import { changeEnforcedBusiness, changeEnforcedCredential } from './enforced-change.js';
import { AllowlistForm, AllowlistSummary, parseAllowlist } from './ip-allowlist-pages.js';

/** What identity issues; anything else names no key, so identity is not asked. */
const CLIENT_ID = /^ci_(test|live)_[0-9a-f]{32}$/;

const NOTICES: Record<string, string> = {
  revoked: 'The key is revoked: its secret and its tokens no longer work.',
  'ip-allowlist': 'The IP allow-list is saved: the next token request or API call obeys it.',
};

const present = <T,>(answer: T | undefined): T => {
  if (!answer) throw new Error('identity answered nothing');
  return answer;
};

const ALLOWLIST_TITLE = 'Production IP allow-list';

/** Seed 8's IP allow-list is production's: the sandbox has no page for it (404, as a page that does not exist). */
function productionOnly(_req: Request, res: Response, next: NextFunction): void {
  if (stateOf(res).environment !== 'production') return notFoundPage(res);
  next();
}

const listInWords = (entries: readonly string[]) => (entries.length === 0 ? 'every address' : entries.join(', '));

/**
 * /api-keys: list, create, rotate and revoke the business's client credentials (seed 5.1). A secret
 * is rendered only in the answer to the POST that made it (no redirect, Cache-Control: no-store).
 */
export function apiKeysRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { identity } = deps.clients;

  /** The member's business's key, or 404: identity's Rotate/Revoke take a client_id alone. */
  async function ownCredential(req: Request, res: Response): Promise<Credential> {
    const clientId = String(req.params.clientId);
    if (!CLIENT_ID.test(clientId)) throw notFound('CREDENTIAL_NOT_FOUND', 'no such key');
    const credential = present((await identity.getCredential({ clientId }, memberCall(res))).credential);
    if (credential.businessId !== memberOf(res).businessId) throw notFound('CREDENTIAL_NOT_FOUND', 'no such key');
    return credential;
  }

  /** The bundles and scopes chosen, checked against seed 5's names before identity is asked. */
  function chosenGrant(req: Request): { bundles: string[]; scopes: string[]; problem?: string } {
    const bundles = listField(req, 'bundles');
    const scopes = listField(req, 'scopes');
    const grant = expandGrant(bundles, scopes);
    return { bundles, scopes, ...(grant.ok ? {} : { problem: grant.problem }) };
  }

  /** The member's business as identity has it (its IP allow-list). */
  async function ownBusiness(res: Response): Promise<Business> {
    return present((await identity.getBusiness({ id: memberOf(res).businessId }, memberCall(res))).business);
  }

  router.get('/api-keys', requireMember('read'), async (req, res) => {
    const member = memberOf(res);
    const { environment } = stateOf(res);
    let answer;
    let business: Business | undefined;
    try {
      [answer, business] = await Promise.all([
        identity.listCredentials(
          { businessId: member.businessId, page: { cursor: queryText(req, 'cursor'), limit: 50 } },
          memberCall(res),
        ),
        environment === 'production' ? ownBusiness(res) : undefined,
      ]);
    } catch (error) {
      if (!isUnimplemented(error)) throw error;
      return sendPage(res, 503, 'API keys', <p>Identity cannot list keys yet; try again after its next release.</p>);
    }
    sendPage(
      res,
      200,
      'API keys',
      <>
        <KeyList
          credentials={answer.credentials}
          mayManage={memberMay(res, 'manage_keys')}
          nextCursor={answer.page?.nextCursor}
          notice={NOTICES[queryText(req, 'notice')]}
        />
        <AllowlistSummary
          environment={environment}
          entries={business?.ipAllowlist ?? []}
          mayManage={memberMay(res, 'manage_keys')}
        />
      </>,
    );
  });

  router.get('/api-keys/new', requireMember('manage_keys'), (_req, res) =>
    sendPage(res, 200, 'Create an API key', <CreateKeyForm />),
  );

  router.post('/api-keys', requireMember('manage_keys'), async (req, res) => {
    const { bundles, scopes, problem } = chosenGrant(req);
    const again = (error: string) =>
      sendPage(res, 422, 'Create an API key', <CreateKeyForm selected={[...bundles, ...scopes]} error={error} />);
    if (bundles.length === 0 && scopes.length === 0) return again('Choose at least one bundle or scope.');
    if (problem) return again(problem);
    let created;
    try {
      created = await identity.createCredential(
        { businessId: memberOf(res).businessId, bundles, scopes },
        memberCall(res),
      );
    } catch (error) {
      if (error instanceof DomainError && error.status === Status.INVALID_ARGUMENT) return again(error.message);
      throw error;
    }
    const credential = present(created.credential);
    await recordAudit(deps, req, res, {
      action: 'credential.created',
      target: credential.clientId,
      details: `API key created with scopes ${credential.scopes.join(' ')}`,
    });
    sendPage(
      res,
      201,
      'Your new API key',
      <SecretShownOnce credential={credential} clientSecret={created.clientSecret} apiBaseUrl={deps.apiBaseUrl} />,
    );
  });

  router.get('/api-keys/:clientId/rotate', requireMember('manage_keys'), async (req, res) => {
    sendPage(res, 200, 'Rotate an API key', <RotateKeyForm credential={await ownCredential(req, res)} />);
  });

  router.post('/api-keys/:clientId/rotate', requireMember('manage_keys'), async (req, res) => {
    const current = await ownCredential(req, res);
    const { bundles, scopes, problem } = chosenGrant(req);
    const again = (status: number, error: string) =>
      sendPage(res, status, 'Rotate an API key', <RotateKeyForm credential={current} error={error} />);
    if (problem) return again(422, problem);
    let clientSecret = '';
    let rotated;
    try {
      rotated = await changeEnforcedCredential(deps.accessCache, deps.logger, current, async () => {
        const answer = await identity.rotateCredential(
          { clientId: current.clientId, bundles, scopes },
          memberCall(res),
        );
        clientSecret = answer.clientSecret;
        return present(answer.credential);
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status === Status.INVALID_ARGUMENT) return again(422, error.message);
      if (error.status === Status.FAILED_PRECONDITION) return again(400, error.message);
      throw error;
    }
    await recordAudit(deps, req, res, {
      action: 'credential.rotated',
      target: rotated.clientId,
      details: `API key rotated (generation ${rotated.generation}) with scopes ${rotated.scopes.join(' ')}`,
    });
    sendPage(
      res,
      200,
      'Your rotated API key',
      <SecretShownOnce credential={rotated} clientSecret={clientSecret} apiBaseUrl={deps.apiBaseUrl} />,
    );
  });

  router.get('/api-keys/:clientId/revoke', requireMember('manage_keys'), async (req, res) => {
    sendPage(res, 200, 'Revoke an API key', <RevokeKeyForm credential={await ownCredential(req, res)} />);
  });

  router.post('/api-keys/:clientId/revoke', requireMember('manage_keys'), async (req, res) => {
    const current = await ownCredential(req, res);
    const revoked = await changeEnforcedCredential(deps.accessCache, deps.logger, current, async () =>
      present((await identity.revokeCredential({ clientId: current.clientId }, memberCall(res))).credential),
    );
    await recordAudit(deps, req, res, {
      action: 'credential.revoked',
      target: revoked.clientId,
      details: 'API key revoked',
    });
    res.redirect(303, '/api-keys?notice=revoked');
  });

  router.get('/api-keys/ip-allowlist', productionOnly, requireMember('manage_keys'), async (_req, res) => {
    const business = await ownBusiness(res);
    sendPage(res, 200, ALLOWLIST_TITLE, <AllowlistForm text={business.ipAllowlist.join('\n')} />);
  });

  router.post('/api-keys/ip-allowlist', productionOnly, requireMember('manage_keys'), async (req, res) => {
    const text = textField(req, 'ip_allowlist');
    const again = (error: string) => sendPage(res, 422, ALLOWLIST_TITLE, <AllowlistForm text={text} error={error} />);
    const { entries, problem } = parseAllowlist(text);
    if (problem) return again(problem);
    const { businessId } = memberOf(res);
    const before = await ownBusiness(res);
    let changed;
    try {
      changed = await changeEnforcedBusiness(deps.accessCache, deps.logger, businessId, async () =>
        present(
          (await identity.updateBusiness({ id: businessId, ipAllowlist: { entries } }, memberCall(res))).business,
        ),
      );
    } catch (error) {
      // identity's own limits (at most 100 entries) and checks, in its words.
      if (error instanceof DomainError && error.status === Status.INVALID_ARGUMENT) return again(error.message);
      throw error;
    }
    if (changed.version !== before.version) {
      await recordAudit(deps, req, res, {
        action: 'business.ip_allowlist_changed',
        target: businessId,
        details: `production IP allow-list: ${listInWords(changed.ipAllowlist)} (was ${listInWords(before.ipAllowlist)})`,
      });
    }
    res.redirect(303, '/api-keys?notice=ip-allowlist');
  });

  return router;
}
