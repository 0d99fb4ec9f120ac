import { randomBytes, randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Environment } from '../members/roles.js';
import type { Session } from '../sessions/session-store.js';

/** What the dashboard knows about one request, read by pages and guards through stateOf. */
export interface RequestState {
  requestId: string;
  environment: Environment;
  /** The member's address as express's trust-proxy setting reads it. */
  address: string;
  /** The live session the browser presented, any stage. */
  session?: Session;
  /** The anonymous forms' token (its cookie's value), when this browser has one. */
  formToken?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function stateOf(res: Response): RequestState {
  const state: unknown = res.locals.dashboard;
  if (typeof state !== 'object' || state === null) throw new Error('request state read before it was set');
  return state as RequestState;
}

/** The first middleware: request id (x-request-id, as the gateway) and the environment. */
export function requestState(environment: Environment): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', requestId);
    const state: RequestState = { requestId, environment, address: req.ip ?? req.socket.remoteAddress ?? '' };
    res.locals.dashboard = state;
    next();
  };
}

export const newFormToken = () => randomBytes(32).toString('base64url');
