import { Router } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { queryText } from '../http/form.js';
import { Notice, PostForm } from '../layout/components.js';
import { sendPage } from '../layout/render.js';
import { memberCall, memberMay, memberOf, requireMember } from '../members/member-access.js';

const NOTICES: Record<string, string> = {
  'totp-on': 'Two-step sign-in is on: from now on Corridor asks for a code after your password.',
};

/** /: the business, the environment, the API base URL and the first steps with a key. */
export function homeRouter({ clients, environment, apiBaseUrl }: DashboardDependencies): Router {
  const router = Router();
  router.get('/', requireMember('read'), async (req, res) => {
    const member = memberOf(res);
    const { business } = await clients.identity.getBusiness({ id: member.businessId }, memberCall(res));
    const tokenCommand = [
      `curl -s ${apiBaseUrl}/oauth/token -d grant_type=client_credentials \\`,
      '     -d client_id="$CLIENT_ID" -d client_secret="$CLIENT_SECRET" -d "scope=customer:read"',
    ].join('\n');
    const whoamiCommand = `curl -s ${apiBaseUrl}/api/external/whoami -H "Authorization: Bearer $TOKEN"`;
    sendPage(
      res,
      200,
      business?.name ?? 'Your business',
      <>
        <Notice message={NOTICES[queryText(req, 'notice')]} />
        <dl className="facts">
          <dt>Environment</dt>
          <dd>{environment === 'sandbox' ? 'Sandbox (test money only)' : 'Production (real money)'}</dd>
          <dt>API base URL</dt>
          <dd>
            <code>{apiBaseUrl}</code>
          </dd>
          <dt>Business id</dt>
          <dd>
            <code>{member.businessId}</code>
          </dd>
        </dl>
        <h2>First steps</h2>
        <ol className="steps">
          <li>
            {memberMay(res, 'manage_keys') ? (
              <>
                <a href="/api-keys/new">Create an API key</a> and copy its secret: it is shown once.
              </>
            ) : (
              'Ask an owner or admin of your business for an API key: its secret is shown once, to whoever creates it.'
            )}
          </li>
          <li>
            Exchange the key for an access token:
            <pre>
              <code>{tokenCommand}</code>
            </pre>
          </li>
          <li>
            Call the API with the token:
            <pre>
              <code>{whoamiCommand}</code>
            </pre>
          </li>
        </ol>
        <h2>Your sessions</h2>
        <p>Signed in somewhere you no longer use? End every session of yours, this one included.</p>
        <PostForm action="/sign-out-everywhere">
          <button type="submit">Sign out everywhere</button>
        </PostForm>
      </>,
    );
  });
  return router;
}
