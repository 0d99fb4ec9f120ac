import { z } from '@corridor/config';
import type { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { callerMetadata, DomainError, Status, type ClientOf } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { jsonBody } from '../http/common.js';
import { errorHandler, HttpError } from '../http/errors.js';
import { present, uploadJson } from '../public/customers/render.js';
import { text } from '../floor/fields.js';
import { readBody } from '../http/input.js';
import {
  contentSecurityPolicy,
  failurePage,
  notFoundPage,
  SCRIPT_PATH,
  unavailablePage,
  verificationPage,
} from './verification-page-html.js';
import { VERIFICATION_PAGE_SCRIPT } from './verification-page-script.js';
import { verificationJson } from './verification-view.js';

/**
 * The person's page of a merchant KYC session, /verify/{token} (decision 0016): no account and no
 * API token, the token in the link is the credential. The page gives files straight to storage
 * through presigned uploads and submits; its JSON endpoints only carry small requests to customer-kyb.
 */

export interface VerificationPageDependencies {
  clients: { kycSessions: ClientOf<typeof KycSessionService> };
  environment: string;
  logger: Logger;
  /** The storage origin presigned upload URLs point at: the page's policy lets its script PUT there. */
  uploadOrigin?: string;
}

/** S3Proxy of the local platform; a deployment passes its bucket's origin. */
export const DEFAULT_UPLOAD_ORIGIN = 'http://127.0.0.1:9000';

/** What customer-kyb issues: 32 random bytes, url-safe base64. Anything else names no session. */
const VERIFICATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The bodies are a few short fields: the files themselves never pass through the gateway. */
const BODY_LIMIT = '2kb';

const typeProblem = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${expected}`;

// Only types and shapes here: which content types and sizes are taken is customer-kyb's to say.
const UploadBody = z.strictObject({
  kind: z.enum(['document', 'selfie'], { error: typeProblem('document or selfie') }),
  content_type: text(100, 'the file’s media type, e.g. image/png'),
  content_length: z
    .int({ error: typeProblem('the file’s size in bytes (a JSON integer)') })
    .min(1, 'must be the file’s size in bytes, 1 or more'),
});
const CaptureBody = z.strictObject({ file_id: text(100, 'the file_id its upload answered') });
const SubmitBody = z.strictObject({});

const notFound = () => new HttpError(404, 'VERIFICATION_NOT_FOUND', 'no verification has this link');

function send(res: Response, status: number, html: string): void {
  res.status(status).type('html').send(html);
}

export function verificationPageRouter({
  clients,
  environment,
  logger,
  uploadOrigin = DEFAULT_UPLOAD_ORIGIN,
}: VerificationPageDependencies): Router {
  const { kycSessions } = clients;
  const sandbox = environment === 'sandbox';
  // new URL throws at start on a bad origin, rather than at the first person's page.
  const policy = contentSecurityPolicy(new URL(uploadOrigin).origin);
  const callOf = (res: Response) => ({
    metadata: callerMetadata({ requestId: res.locals.requestId as string, environment }),
  });
  const tokenOf = (req: Request): string => {
    const token = req.params.token;
    if (typeof token !== 'string' || !VERIFICATION_TOKEN.test(token)) throw notFound();
    return token;
  };

  const router = Router();
  // The token is the person's secret: never in a Referer, a cache or a frame of another site.
  router.use('/verify', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });

  router.get(SCRIPT_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/javascript; charset=utf-8').send(VERIFICATION_PAGE_SCRIPT);
  });

  // Any failure is answered as a page, never as the API's JSON.
  router.get('/verify/:token', async (req, res) => {
    const token = req.params.token;
    if (!VERIFICATION_TOKEN.test(token)) return send(res, 404, notFoundPage());
    try {
      const { view } = await kycSessions.getVerificationPage({ token }, callOf(res));
      send(res, 200, verificationPage(present(view, 'view'), token, sandbox));
    } catch (error) {
      if (error instanceof DomainError && error.status === Status.NOT_FOUND) return send(res, 404, notFoundPage());
      if (error instanceof DomainError && [Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED].includes(error.status)) {
        logger.warn({ err: error, path: '/verify/{token}' }, 'verification page: customer-kyb unavailable');
        return send(res, 503, unavailablePage());
      }
      logger.error({ err: error, path: '/verify/{token}' }, 'verification page failed');
      send(res, 500, failurePage());
    }
  });

  // The page's script: JSON in, DESIGN.md answers out. The token is checked before the body is read.
  const api = Router();
  const checkToken: RequestHandler = (req, _res, next) => {
    tokenOf(req);
    next();
  };
  const json = [checkToken, ...jsonBody(BODY_LIMIT)];

  api.post('/verify/:token/uploads', ...json, async (req, res) => {
    const body = readBody(UploadBody, req.body);
    const { upload } = await kycSessions.createVerificationUpload(
      {
        token: tokenOf(req),
        kind: body.kind,
        contentType: body.content_type,
        contentLength: BigInt(body.content_length),
      },
      callOf(res),
    );
    res.status(201).json({ message: 'upload url created', data: uploadJson(present(upload, 'upload')) });
  });

  api.post('/verify/:token/captures', ...json, async (req, res) => {
    const body = readBody(CaptureBody, req.body);
    const { view } = await kycSessions.addVerificationCapture(
      { token: tokenOf(req), fileId: body.file_id },
      callOf(res),
    );
    res.json({ message: 'capture recorded', data: verificationJson(present(view, 'view')) });
  });

  api.post('/verify/:token/submit', ...json, async (req, res) => {
    readBody(SubmitBody, req.body);
    const { view } = await kycSessions.submitVerification({ token: tokenOf(req) }, callOf(res));
    res.json({ message: 'verification submitted', data: verificationJson(present(view, 'view')) });
  });

  api.use(errorHandler(logger));
  router.use(api);
  return router;
}
