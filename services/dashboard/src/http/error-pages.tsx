import { AccessCacheUnavailable } from '@corridor/access-cache';
import { DomainError, Status } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { sendPage } from '../layout/render.js';

/** Redis (sessions, limits) did not answer: the dashboard serves nothing it cannot check. */
export class DependencyUnavailable extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what} unavailable`);
    this.name = 'DependencyUnavailable';
    this.cause = cause;
  }
}

/** Long enough for a pod or a failover to come back, as the gateway's. */
const RETRY_AFTER_SECONDS = 2;

const home = (
  <p>
    <a href="/">Go to the dashboard</a>
  </p>
);

export function notFoundPage(res: Response): void {
  sendPage(
    res,
    404,
    'Page not found',
    <>
      <p>There is nothing at this address, or it belongs to another business.</p>
      {home}
    </>,
  );
}

function unavailablePage(res: Response, message: string): void {
  res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  sendPage(
    res,
    503,
    'Try again in a moment',
    <>
      <p>{message}</p>
      {home}
    </>,
  );
}

export const routeNotFound: RequestHandler = (_req, res) => notFoundPage(res);

/**
 * Every failure as a page of the dashboard, never a stack trace: identity's NOT_FOUND (another
 * business's resource too) is 404, a dependency away is 503 with Retry-After, a defect 500.
 */
export function pageErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) return;
    if (error instanceof DomainError) {
      if (error.status === Status.NOT_FOUND) return notFoundPage(res);
      if (error.status === Status.PERMISSION_DENIED) {
        return sendPage(res, 403, 'You cannot do this', <p>{error.message}</p>);
      }
      if (error.status === Status.UNAVAILABLE || error.status === Status.DEADLINE_EXCEEDED) {
        logger.warn({ err: error, path: req.path }, 'a service the dashboard calls is unavailable');
        return unavailablePage(res, 'A service the dashboard depends on is unavailable; nothing was changed.');
      }
    }
    if (error instanceof AccessCacheUnavailable) {
      logger.warn({ err: error, path: req.path }, 'access cache unreachable: change refused');
      return unavailablePage(
        res,
        'Nothing was changed: the API gateways cannot be told about it right now. Try again in a moment.',
      );
    }
    if (error instanceof DependencyUnavailable) {
      logger.warn({ err: error, path: req.path }, 'session store unreachable');
      return unavailablePage(res, 'The dashboard cannot check your session right now.');
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendPage(res, status, 'This request cannot be read', <p>The form sent was too large or malformed.</p>);
    }
    logger.error({ err: error, path: req.path }, 'dashboard page failed');
    sendPage(
      res,
      500,
      'Something went wrong',
      <>
        <p>The dashboard failed to answer; the problem is logged. Try again, or go back.</p>
        {home}
      </>,
    );
  };
}
