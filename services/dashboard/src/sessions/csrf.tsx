import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { textField } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { sendPage } from '../layout/render.js';

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Every POST must carry this browser's token in its csrf_token field: the session's, or for the
 * anonymous forms the double-submitted cookie's. A browser that says where the form came from
 * (Origin) must name this dashboard. SameSite=Lax already keeps the cookies off other sites' POSTs;
 * this holds when it does not (old browsers, a sibling site).
 */
export function refuseForgedPosts(origin: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const { session, formToken } = stateOf(res);
    const given = req.get('origin');
    const sent = textField(req, 'csrf_token');
    const expected = [session?.csrfToken, formToken].filter((token): token is string => !!token);
    const fromHere = given === undefined || given === origin;
    if (fromHere && sent !== '' && expected.some((token) => sameText(token, sent))) return next();
    sendPage(
      res,
      403,
      'This form cannot be accepted',
      <>
        <p>
          The form has expired or did not come from this dashboard, so nothing was changed. Go back, reload the page and
          send it again.
        </p>
        <p>
          <a href="/">Go to the dashboard</a>
        </p>
      </>,
    );
  };
}
