import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError, failureKind, Status } from '@corridor/grpc';
import { type FieldErrors } from '@corridor/validation';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import onHeaders from 'on-headers';
import type { Logger } from '@corridor/logging';

/** The public error body (DESIGN.md): status false, the specific problem, a machine code. */
export interface ErrorBody {
  status: false;
  message: string;
  code: string;
  errors?: FieldErrors;
}

/** An error the gateway answers itself, before or instead of calling a service. */
export class HttpError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** DESIGN.md error table: each gRPC status has exactly one HTTP status. */
const HTTP_STATUS_OF: Partial<Record<Status, number>> = {
  [Status.INVALID_ARGUMENT]: 422,
  [Status.FAILED_PRECONDITION]: 400,
  [Status.NOT_FOUND]: 404,
  [Status.ALREADY_EXISTS]: 409,
  [Status.UNAUTHENTICATED]: 401,
  [Status.PERMISSION_DENIED]: 403,
  [Status.RESOURCE_EXHAUSTED]: 429,
  [Status.UNAVAILABLE]: 503,
  [Status.DEADLINE_EXCEEDED]: 504,
};

/** A dependency failure says what happened and that a retry is the remedy, never how it failed inside. */
const INTERNAL: [code: string, message: string] = ['INTERNAL', 'internal error'];
const INTERNAL_DEFECT = new DomainError(Status.INTERNAL, 'INTERNAL', 'internal error');
const DEPENDENCY_AWAY = new DomainError(Status.UNAVAILABLE, 'UPSTREAM_UNAVAILABLE', 'a dependency is unavailable');
/** Long enough for a pod or a database failover to come back, short enough not to stall a client. */
export const RETRY_AFTER_SECONDS = 2;
const SERVER_ERRORS: Record<number, [code: string, message: string]> = {
  503: ['SERVICE_UNAVAILABLE', 'a service Corridor depends on is unavailable; retry shortly'],
  504: ['SERVICE_TIMEOUT', 'a service Corridor depends on did not answer in time; retry shortly'],
};

/**
 * Every 503 says when to try again (RFC 9110 10.2.3), whoever answers it: a service away, the rate
 * limiter's Redis, the token endpoint, /readyz, the payer's page. A route that knows better sets
 * its own Retry-After first.
 */
export const retryAfterWhenUnavailable: RequestHandler = (_req, res, next) => {
  onHeaders(res, () => {
    if (res.statusCode === 503 && !res.hasHeader('retry-after'))
      res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
  });
  next();
};

export function httpStatusOf(status: Status): number {
  return HTTP_STATUS_OF[status] ?? 500;
}

export function sendError(
  res: Response,
  httpStatus: number,
  code: string,
  message: string,
  errors?: FieldErrors,
): void {
  const body: ErrorBody = { status: false, message, code, ...(errors ? { errors } : {}) };
  res.status(httpStatus).json(body);
}

/** express 5 forwards rejected promises of async handlers here. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof HttpError) {
      sendError(res, error.httpStatus, error.code, error.message, error.errors);
      return;
    }
    const bodyParserError = error as { type?: string; status?: number; message?: string; limit?: number };
    if (bodyParserError.type === 'entity.parse.failed') {
      sendError(
        res,
        400,
        'MALFORMED_JSON',
        `request body is not valid JSON: ${bodyParserError.message ?? 'parse error'}`,
      );
      return;
    }
    if (bodyParserError.type === 'entity.too.large') {
      sendError(
        res,
        413,
        'BODY_TOO_LARGE',
        `request body is larger than the ${bodyParserError.limit ?? ''} byte limit`.replace('  ', ' '),
      );
      return;
    }
    if (typeof bodyParserError.status === 'number' && bodyParserError.status >= 400 && bodyParserError.status < 500) {
      // body-parser's 415s: a charset or content encoding it cannot decode.
      const code = bodyParserError.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST';
      sendError(res, bodyParserError.status, code, bodyParserError.message ?? 'bad request');
      return;
    }
    // Services' failures arrive as DomainErrors (the gRPC client converts every status); anything
    // else is the gateway's own: a dependency of its own away (Redis) is 503, the rest a defect, 500.
    const domain =
      error instanceof DomainError ? error : failureKind(error) === 'unavailable' ? DEPENDENCY_AWAY : INTERNAL_DEFECT;
    const httpStatus = httpStatusOf(domain.status);
    if (httpStatus >= 500) {
      logger.error({ err: error, path: req.path }, 'request failed');
      const [code, message] = SERVER_ERRORS[httpStatus] ?? INTERNAL;
      sendError(res, httpStatus, code, message);
      return;
    }
    sendError(res, httpStatus, domain.reason, domain.message, domain.fieldErrors);
  };
}

export const routeNotFound: RequestHandler = (req, res) =>
  sendError(res, 404, 'ROUTE_NOT_FOUND', `no route for ${req.method} ${req.path}`);

/**
 * Node answers a request it cannot parse (oversized headers, not HTTP) itself, before express: an
 * empty body without x-request-id. Answer it in the error contract instead.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [httpStatus, code, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'the request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'REQUEST_TIMEOUT', 'the request did not arrive in time']
          : [400, 'BAD_REQUEST', 'the request is not valid HTTP/1.1'];
    const body = JSON.stringify({ status: false, message, code } satisfies ErrorBody);
    socket.end(
      `HTTP/1.1 ${httpStatus} ${STATUS_CODES[httpStatus] ?? ''}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
