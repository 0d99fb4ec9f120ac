import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Credential } from '@corridor/contracts/corridor/identity/v1/credential_pb';
import { BUNDLES, SCOPES, type Bundle, type Scope } from '@corridor/scopes';
import { ErrorSummary, Moment, Notice, PostForm } from '../layout/components.js';

const BUNDLE_NAMES = Object.keys(BUNDLES) as Bundle[];
const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

const dateOf = (timestamp: Credential['createdAt']) => (timestamp ? timestampDate(timestamp) : undefined);

export function KeyList(props: {
  credentials: readonly Credential[];
  mayManage: boolean;
  nextCursor?: string;
  notice?: string;
}) {
  return (
    <>
      <Notice message={props.notice} />
      <p>
        A key is a <code>client_id</code> and a secret that your servers exchange for access tokens. Secrets are shown
        once, when a key is created or rotated.
      </p>
      {props.mayManage ? (
        <p>
          <a href="/api-keys/new">Create an API key</a>
        </p>
      ) : null}
      {props.credentials.length === 0 ? (
        <p>There are no API keys yet.</p>
      ) : (
        <table>
          <caption className="visually-hidden">API keys of this environment</caption>
          <thead>
            <tr>
              <th scope="col">Client id</th>
              <th scope="col">Status</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              {props.mayManage ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {props.credentials.map((credential) => (
              <tr key={credential.clientId}>
                <th scope="row">
                  <code>{credential.clientId}</code>
                </th>
                <td>{credential.revoked ? 'Revoked' : 'Active'}</td>
                <td>{credential.scopes.join(', ')}</td>
                <td>
                  <Moment at={dateOf(credential.createdAt)} />
                </td>
                <td>
                  <Moment at={dateOf(credential.lastUsedAt)} />
                </td>
                {props.mayManage ? (
                  <td>
                    {credential.revoked ? null : (
                      <>
                        <a href={`/api-keys/${credential.clientId}/rotate`}>
                          Rotate<span className="visually-hidden">{` ${credential.clientId}`}</span>
                        </a>{' '}
                        <a href={`/api-keys/${credential.clientId}/revoke`}>
                          Revoke<span className="visually-hidden">{` ${credential.clientId}`}</span>
                        </a>
                      </>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.nextCursor ? (
        <p>
          <a href={`/api-keys?cursor=${encodeURIComponent(props.nextCursor)}`}>Older keys</a>
        </p>
      ) : null}
    </>
  );
}

/** Bundles and individual scopes as checkboxes (seed 5): the union is granted. */
function ScopeChoice({ selected }: { selected: readonly string[] }) {
  return (
    <>
      <fieldset>
        <legend>Bundles</legend>
        {BUNDLE_NAMES.map((bundle) => (
          <div className="choice" key={bundle}>
            <input
              type="checkbox"
              id={`bundle-${bundle}`}
              name="bundles"
              value={bundle}
              defaultChecked={selected.includes(bundle)}
              aria-describedby={`bundle-${bundle}-hint`}
            />
            <label htmlFor={`bundle-${bundle}`}>{bundle}</label>
            <span className="hint" id={`bundle-${bundle}-hint`}>
              {bundle === 'full-access' ? 'every scope' : BUNDLES[bundle].join(', ')}
            </span>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>Individual scopes</legend>
        {SCOPE_NAMES.map((scope) => (
          <div className="choice" key={scope}>
            <input
              type="checkbox"
              id={`scope-${scope.replace(/:/g, '-')}`}
              name="scopes"
              value={scope}
              defaultChecked={selected.includes(scope)}
            />
            <label htmlFor={`scope-${scope.replace(/:/g, '-')}`}>
              <code>{scope}</code>: {SCOPES[scope]}
            </label>
          </div>
        ))}
      </fieldset>
    </>
  );
}

export function CreateKeyForm({ selected = ['full-access'], error }: { selected?: readonly string[]; error?: string }) {
  return (
    <>
      <ErrorSummary message={error} />
      <p>Choose what the key may do: a bundle, individual scopes, or both.</p>
      <PostForm action="/api-keys">
        <ScopeChoice selected={selected} />
        <button type="submit">Create the key</button>
      </PostForm>
      <p>
        <a href="/api-keys">Cancel</a>
      </p>
    </>
  );
}

export function RotateKeyForm({ credential, error }: { credential: Credential; error?: string }) {
  return (
    <>
      <ErrorSummary message={error} />
      <p className="warning">
        {`Rotating ${credential.clientId} gives it a new secret. The current secret and every access token made with it stop working at once.`}
      </p>
      <p>{`It may now use: ${credential.scopes.join(', ')}.`}</p>
      <PostForm action={`/api-keys/${credential.clientId}/rotate`}>
        <p>Choose new scopes only to change them; with nothing chosen the key keeps its scopes.</p>
        <ScopeChoice selected={[]} />
        <button type="submit" className="danger">
          Rotate the key
        </button>
      </PostForm>
      <p>
        <a href="/api-keys">Cancel</a>
      </p>
    </>
  );
}

export function RevokeKeyForm({ credential }: { credential: Credential }) {
  return (
    <>
      <p className="warning">
        {`Revoking ${credential.clientId} is final: its secret and every access token made with it stop working at once.`}
      </p>
      <PostForm action={`/api-keys/${credential.clientId}/revoke`}>
        <button type="submit" className="danger">
          Revoke the key
        </button>
      </PostForm>
      <p>
        <a href="/api-keys">Cancel</a>
      </p>
    </>
  );
}

/** The only time a secret is shown: this answer to the POST, never stored, never cached. */
export function SecretShownOnce(props: { credential: Credential; clientSecret: string; apiBaseUrl: string }) {
  const { credential, clientSecret, apiBaseUrl } = props;
  return (
    <>
      <p className="warning" role="status">
        Copy the secret now and keep it in your secret store. Corridor does not keep it and cannot show it again.
      </p>
      <dl className="facts">
        <dt>Client id</dt>
        <dd>
          <code id="client-id">{credential.clientId}</code>
        </dd>
        <dt>Client secret</dt>
        <dd>
          <code id="client-secret" className="secret">
            {clientSecret}
          </code>{' '}
          <button type="button" className="copy" data-copy="client-secret" hidden>
            Copy secret
          </button>
        </dd>
        <dt>Scopes</dt>
        <dd>{credential.scopes.join(', ')}</dd>
      </dl>
      <h2>Get a token with it</h2>
      <pre>
        <code>{`curl -s ${apiBaseUrl}/oauth/token -d grant_type=client_credentials \\\n     -d client_id=${credential.clientId} -d client_secret="$CLIENT_SECRET"`}</code>
      </pre>
      <p>
        <a href="/api-keys">Back to API keys</a>
      </p>
    </>
  );
}
