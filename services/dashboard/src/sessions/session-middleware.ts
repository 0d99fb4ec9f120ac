import type { RequestHandler } from 'express';
import type { DashboardCookies } from '../http/cookies.js';
import { cookieOf } from '../http/cookies.js';
import { DependencyUnavailable } from '../http/error-pages.js';
import { newFormToken, stateOf } from '../http/request-state.js';
import type { SessionStore } from './session-store.js';

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const FORM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Reads the session the browser presents (sliding its idle window) and, for a browser without one,
 * the anonymous forms' token, set now when it has none. An expired or unknown session's cookie is
 * cleared.
 */
export function loadSession(sessions: SessionStore, cookies: DashboardCookies): RequestHandler {
  return async (req, res, next) => {
    const state = stateOf(res);
    const presented = cookieOf(req, cookies.session);
    if (presented !== undefined) {
      let session;
      try {
        session = SESSION_ID.test(presented) ? await sessions.read(presented) : undefined;
      } catch (error) {
        return next(new DependencyUnavailable('sessions', error));
      }
      if (session) state.session = session;
      else cookies.clear(res, cookies.session);
    }
    const formToken = cookieOf(req, cookies.form);
    if (formToken !== undefined && FORM_TOKEN.test(formToken)) state.formToken = formToken;
    else if (!state.session) {
      state.formToken = newFormToken();
      cookies.set(res, cookies.form, state.formToken);
    }
    next();
  };
}
