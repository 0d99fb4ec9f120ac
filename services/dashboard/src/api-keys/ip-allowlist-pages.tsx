import { allowlistEntryProblem } from '@corridor/ip-allowlist';
import { ErrorSummary, PostForm, TextArea } from '../layout/components.js';
import type { Environment } from '../members/roles.js';

/** Room for identity's 100 entries, each a full IPv6 CIDR, one per line. */
const TEXT_MAX_LENGTH = 100 * 44;

/**
 * The entries a member typed, one per line (commas and spaces also separate them), blanks and
 * repeats dropped; or the first that is no address or CIDR, named as the gateway would refuse it.
 */
export function parseAllowlist(text: string): { entries: string[]; problem?: string } {
  const entries = [...new Set(text.split(/[\s,]+/).filter((entry) => entry !== ''))];
  for (const entry of entries) {
    const problem = allowlistEntryProblem(entry);
    if (problem) return { entries, problem };
  }
  return { entries };
}

/** The API keys page's section: what production enforces, or that the sandbox enforces nothing. */
export function AllowlistSummary(props: { environment: Environment; entries: readonly string[]; mayManage: boolean }) {
  const heading = <h2 id="ip-allowlist">IP allow-list</h2>;
  if (props.environment === 'sandbox') {
    return (
      <section aria-labelledby="ip-allowlist">
        {heading}
        <p>
          The sandbox accepts API calls from any address. In production, owners and admins can allow only your servers’
          addresses, on the production dashboard’s API keys page.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="ip-allowlist">
      {heading}
      {props.entries.length === 0 ? (
        <p>Every address may get a token and call the API with this business’s keys.</p>
      ) : (
        <>
          <p>
            Only these addresses may get a token and call the API with this business’s keys; any other is refused with
            403 <code>IP_NOT_ALLOWED</code>:
          </p>
          <ul className="allowlist">
            {props.entries.map((entry) => (
              <li key={entry}>
                <code>{entry}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {props.mayManage ? (
        <p>
          <a href="/api-keys/ip-allowlist">Change the IP allow-list</a>
        </p>
      ) : null}
    </section>
  );
}

export function AllowlistForm({ text, error }: { text: string; error?: string }) {
  return (
    <>
      <ErrorSummary message={error} />
      <p className="warning">
        The list applies to the next request on every gateway: token requests and API calls from any other address are
        refused at once with 403 <code>IP_NOT_ALLOWED</code>. Include every server that calls Corridor.
      </p>
      <PostForm action="/api-keys/ip-allowlist">
        <TextArea
          label="Allowed addresses"
          name="ip_allowlist"
          rows={8}
          maxLength={TEXT_MAX_LENGTH}
          hint="One IPv4 or IPv6 address or CIDR range per line, for example 203.0.113.7 or 203.0.113.0/24; at most 100. Empty allows every address."
          defaultValue={text}
          error={error}
        />
        <button type="submit">Save the IP allow-list</button>
      </PostForm>
      <p>
        <a href="/api-keys">Cancel</a>
      </p>
    </>
  );
}
