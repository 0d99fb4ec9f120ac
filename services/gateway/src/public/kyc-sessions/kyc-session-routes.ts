import { HttpError } from '../../http/errors.js';
import { queryOf } from '../../floor/pages/page-query.js';
import { cursorEnvelope, listLocationOf } from '../../floor/pages/cursor-page.js';
import { readBody, readQuery } from '../../http/input.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import { documentedKycSession, kycSessionOf, present, verificationUrlsOf } from './render.js';
import { KycSessionBody, KycSessionListQuery } from './requests.js';
import { kycSessionBody, kycSessionCancelledBody, kycSessionCreatedBody, KycSessionList } from './responses.js';
import { KYC_REQUIREMENTS, KYC_SESSION_STATUSES } from './vocabulary.js';
import { withExample } from '../../floor/examples.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/** Merchant KYC sessions (seed 3.4, 6.2; decision 0016): create, list, read, cancel. Served by customer-kyb. */

const PATH = '/api/external/kyc-session';

const notFound = (id: string) => new HttpError(404, 'KYC_SESSION_NOT_FOUND', `no KYC session ${id} for this business`);

/** The path's id; not a uuid names no session: the same answer as one of another business. */
function sessionIdOf(req: RouteContext['req']): string {
  return uuidOfPath(req, 'id', notFound);
}

async function createKycSession({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(KycSessionBody, req.body);
  const response = await clients.kycSessions.createKycSession(
    {
      customerReference: body.customer_reference,
      requirements: body.requirements.map((requirement) => KYC_REQUIREMENTS.toProto(requirement)),
      customerId: body.customer_id,
      redirectUrl: body.redirect_url,
    },
    call,
  );
  const session = kycSessionOf(response, verificationUrlsOf(req));
  res.status(201).location(`${PATH}/${session.id}`).json({ message: 'kyc session created', data: session });
}

async function listKycSessions({ req, res, clients, call }: RouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = readQuery(KycSessionListQuery, params);
  const { sessions, page } = await clients.kycSessions.listKycSessions(
    {
      customerReference: query.customer_reference,
      status: query.status === undefined ? undefined : KYC_SESSION_STATUSES.toProto(query.status),
      customerId: query.customer_id,
      page: { cursor: query.cursor ?? '', limit: query.per_page },
    },
    call,
  );
  const verificationUrlOf = verificationUrlsOf(req);
  res.json(
    cursorEnvelope(
      sessions.map((session) => documentedKycSession(session, verificationUrlOf)),
      present(page, 'page'),
      query.per_page,
      listLocationOf(req, params),
    ),
  );
}

async function getKycSession({ req, res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.kycSessions.getKycSession({ sessionId: sessionIdOf(req) }, call);
  res.json({ message: 'kyc session retrieved', data: kycSessionOf(response, verificationUrlsOf(req)) });
}

async function cancelKycSession({ req, res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.kycSessions.cancelKycSession({ sessionId: sessionIdOf(req) }, call);
  res.json({ message: 'kyc session cancelled', data: kycSessionOf(response, verificationUrlsOf(req)) });
}

const NOT_FOUND = { description: 'Your business has no KYC session with this id (KYC_SESSION_NOT_FOUND)' };

export const KYC_SESSION_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: PATH,
    scope: 'customer:write',
    operationId: 'createKycSession',
    summary:
      'Start a merchant KYC session for a person: send them its verification_url; the verdict arrives at your kyc_url as merchant.kyc.session.completed, or merchant.kyc.session.expired after the deadline',
    requestBody: withExample(jsonSchemaOf(KycSessionBody, 'input'), {
      customer_reference: 'user-42',
      requirements: ['DOCUMENTS', 'SELFIE'],
      redirect_url: 'https://example.com/kyc/done',
    }),
    responses: {
      201: {
        description: 'The PENDING session with its verification_url',
        schema: jsonSchemaOf(kycSessionCreatedBody),
      },
      422: {
        description:
          'A field is missing, malformed or unknown: customer_reference 1 to 255 characters, requirements a non-empty array of distinct DOCUMENTS, SELFIE, FACE_MATCH, customer_id a uuid, redirect_url an https URL of at most 2048 characters (VALIDATION_FAILED, `errors` names each field); customer_id is not one of your customers (VALIDATION_FAILED, errors.customer_id); or the customer_reference was rejected with FINAL in an earlier session (KYC_REFERENCE_REJECTED)',
      },
    },
    handle: createKycSession,
  },
  {
    method: 'get',
    path: PATH,
    scope: 'customer:read',
    operationId: 'listKycSessions',
    summary:
      'List your KYC sessions, newest first, in cursor pages: exact filters customer_reference, status and customer_id',
    query: querySchemaOf(KycSessionListQuery),
    responses: {
      200: {
        description: 'A page of matching sessions in Laravel’s cursor-paginator envelope',
        schema: jsonSchemaOf(KycSessionList),
      },
      422: {
        description:
          'An unknown or repeated parameter, status not one of PENDING, PROCESSING, COMPLETED, EXPIRED, CANCELLED, customer_id not a uuid, or per_page outside 1..100 (VALIDATION_FAILED, `errors` names each parameter); a cursor that is not one of this list’s pages (customer-kyb refuses it, naming cursor)',
      },
    },
    handle: listKycSessions,
  },
  {
    method: 'get',
    path: `${PATH}/{id}`,
    scope: 'customer:read',
    operationId: 'getKycSession',
    summary: 'Read one of your KYC sessions: its status, and its result once COMPLETED',
    responses: {
      200: { description: 'The session', schema: jsonSchemaOf(kycSessionBody) },
      404: NOT_FOUND,
    },
    handle: getKycSession,
  },
  {
    method: 'post',
    path: `${PATH}/{id}/cancel`,
    scope: 'customer:write',
    operationId: 'cancelKycSession',
    summary:
      'Cancel an open (PENDING or PROCESSING) KYC session: no webhook is sent. Cancelling a cancelled session answers it again',
    responses: {
      200: { description: 'The CANCELLED session', schema: jsonSchemaOf(kycSessionCancelledBody) },
      400: { description: 'The session is already COMPLETED or EXPIRED (KYC_SESSION_NOT_OPEN)' },
      404: NOT_FOUND,
    },
    handle: cancelKycSession,
  },
];
