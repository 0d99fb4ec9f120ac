import { callerMetadata, DomainError, Status } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import { Router, type Request, type Response } from 'express';
import type { Clients } from '../clients.js';
import {
  CONTENT_SECURITY_POLICY,
  failurePage,
  notFoundPage,
  notPendingPage,
  requestPage,
  resultPage,
  returnUrlOf,
  unavailablePage,
} from './payment-page-html.js';

/**
 * The payer's page of a money request, /pay/{token} (issue 11): no account and no API token, the
 * payment token in the link is the credential. It shows the request and posts Approve or Decline
 * to payments, then sends the payer back to the business's redirect_url with the outcome.
 */

export interface PaymentPageDependencies {
  clients: Pick<Clients, 'collections'>;
  environment: string;
  logger: Logger;
}

/** What payments issues: url-safe base64. Anything else names no request, so payments is not asked. */
const PAYMENT_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

function send(res: Response, status: number, html: string): void {
  res.status(status).type('html').send(html);
}

/** The token is the payer's secret: never in a Referer, a cache or a frame of another site. */
function securePage(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export function paymentPageRouter({ clients, environment, logger }: PaymentPageDependencies): Router {
  const router = Router();
  const { collections } = clients;
  const callOf = (res: Response) => ({
    metadata: callerMetadata({ requestId: res.locals.requestId as string, environment }),
  });

  /** A failure as the payer's page: missing, no longer pending, or payments unreachable. */
  async function answerFailure(error: unknown, token: string, req: Request, res: Response): Promise<void> {
    if (!(error instanceof DomainError)) throw error;
    if (error.status === Status.NOT_FOUND) return send(res, 404, notFoundPage());
    if (error.reason === 'PAYMENT_REQUEST_NOT_PENDING') {
      const { request } = await collections.getPaymentRequest({ paymentToken: token }, callOf(res));
      if (request) return send(res, 400, notPendingPage(request));
    }
    if (error.status === Status.UNAVAILABLE || error.status === Status.DEADLINE_EXCEEDED) {
      logger.warn({ err: error, path: req.path }, 'payment page: payments unavailable');
      return send(res, 503, unavailablePage());
    }
    throw error;
  }

  /** Runs a page's work; any failure is answered as a page, never as the API's JSON. */
  const page =
    (work: (token: string, res: Response) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      securePage(res);
      const token = req.params.token;
      if (typeof token !== 'string' || !PAYMENT_TOKEN.test(token)) return send(res, 404, notFoundPage());
      try {
        await work(token, res);
      } catch (error) {
        try {
          await answerFailure(error, token, req, res);
        } catch (defect) {
          logger.error({ err: defect, path: req.path }, 'payment page failed');
          send(res, 500, failurePage());
        }
      }
    };

  router.get(
    '/pay/:token',
    page(async (token, res) => {
      const { request } = await collections.getPaymentRequest({ paymentToken: token }, callOf(res));
      if (!request) throw new Error('payments answered no payment request');
      send(res, 200, requestPage(request, token));
    }),
  );

  for (const [answer, approve] of [
    ['approve', true],
    ['decline', false],
  ] as const) {
    router.post(
      `/pay/:token/${answer}`,
      page(async (token, res) => {
        const { request } = await collections.authorizePaymentRequest({ paymentToken: token, approve }, callOf(res));
        if (!request) throw new Error('payments answered no payment request');
        const returnUrl = returnUrlOf(request);
        // 303: the browser follows with a GET, so a reload never answers the request twice.
        if (returnUrl) return res.redirect(303, returnUrl);
        send(res, 200, resultPage(request));
      }),
    );
  }
  return router;
}
