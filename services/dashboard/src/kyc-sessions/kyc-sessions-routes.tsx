import { DomainError, notFound, Status } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { Router } from 'express';
import { ListQuery } from '../customers/list-query.js';
import type { DashboardDependencies } from '../dependencies.js';
import { sendPage } from '../layout/render.js';
import { memberCall, memberOf, requireMember } from '../members/member-access.js';
import { KYC_SESSION_STATUSES } from './kyc-session-words.js';
import { KycSessionDetail, KycSessionList } from './kyc-sessions-pages.js';

const LIST_PARAMETERS = ['customer_reference', 'status', 'customer_id', 'cursor'];
/** The API's limit on customer_reference. */
const REFERENCE_LIMIT = 255;

/**
 * /kyc-sessions: the business's merchant KYC sessions over customer-kyb's KycSessionService,
 * read-only (issue 30 part 3). Calls carry the member's business: another's session is NOT_FOUND.
 */
export function kycSessionsRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { kycSessions } = deps.clients;

  router.get('/kyc-sessions', requireMember('read'), async (req, res) => {
    const query = new ListQuery(req, LIST_PARAMETERS);
    const request = {
      customerReference: query.text('customer_reference', REFERENCE_LIMIT),
      status: query.word('status', KYC_SESSION_STATUSES),
      customerId: query.checked('customer_id', isUuid, 'must be a customer id (a uuid)')?.toLowerCase(),
    };
    const filters = Object.fromEntries(query.filters());
    const refuse = (error: string) =>
      sendPage(res, 422, 'KYC sessions', <KycSessionList filters={filters} problems={query.problems} error={error} />);
    if (query.problem) return refuse(query.problem);
    let answer;
    try {
      // limit 0: the API's page size.
      answer = await kycSessions.listKycSessions(
        { ...request, page: { cursor: query.values.get('cursor') ?? '', limit: 0 } },
        memberCall(res),
      );
    } catch (error) {
      // A cursor or filter customer-kyb refuses is the member's input: named on the page, never a 500.
      if (error instanceof DomainError && error.status === Status.INVALID_ARGUMENT) return refuse(error.message);
      throw error;
    }
    sendPage(
      res,
      200,
      'KYC sessions',
      <KycSessionList
        sessions={answer.sessions}
        filters={filters}
        problems={query.problems}
        nextCursor={answer.page?.nextCursor}
        previousCursor={answer.page?.previousCursor}
      />,
    );
  });

  router.get('/kyc-sessions/:sessionId', requireMember('read'), async (req, res) => {
    const sessionId = String(req.params.sessionId);
    // Not a uuid names no session: 404 without asking customer-kyb.
    if (!isUuid(sessionId)) throw notFound('KYC_SESSION_NOT_FOUND', 'no such KYC session');
    const { session } = await kycSessions.getKycSession({ sessionId: sessionId.toLowerCase() }, memberCall(res));
    if (!session) throw new Error('customer-kyb answered no session');
    if (session.businessId !== memberOf(res).businessId) throw notFound('KYC_SESSION_NOT_FOUND', 'no such KYC session');
    sendPage(
      res,
      200,
      `KYC session ${session.customerReference}`,
      <KycSessionDetail session={session} apiBaseUrl={deps.apiBaseUrl} />,
    );
  });

  return router;
}
