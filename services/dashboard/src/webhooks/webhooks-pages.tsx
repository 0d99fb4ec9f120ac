import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type {
  WebhookConfig,
  WebhookUrlHealth,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { DESTINATIONS, URL_DISABLED_REASONS } from '@corridor/grpc/notification-words';
import { wordOf } from './vocabulary.js';
import { ErrorSummary, Field, Moment, Notice, PostForm } from '../layout/components.js';
import type { Problems } from './delivery-filters.js';

export const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

/** The three URLs as a member typed them (or as registered), by the API's field names. */
export interface WebhookUrls {
  collection_url: string;
  payout_url: string;
  kyc_url: string;
}

export const urlsOf = (webhook: WebhookConfig): WebhookUrls => ({
  collection_url: webhook.collectionUrl,
  payout_url: webhook.payoutUrl,
  kyc_url: webhook.kycUrl,
});

function WebhookFacts({ webhook }: { webhook: WebhookConfig }) {
  return (
    <dl className="facts">
      <dt>Collection URL</dt>
      <dd>
        <code>{webhook.collectionUrl}</code>
      </dd>
      <dt>Payout URL</dt>
      <dd>
        <code>{webhook.payoutUrl}</code>
      </dd>
      <dt>KYC URL</dt>
      <dd>{webhook.kycUrl ? <code>{webhook.kycUrl}</code> : 'None: merchant KYC session events are not sent'}</dd>
      <dt>Signing secret</dt>
      <dd>
        {webhook.signingSecretLast4 ? `Ends in ${webhook.signingSecretLast4}` : 'Set'} (shown only when it was issued:
        at registration or rotation)
      </dd>
      <dt>Registered</dt>
      <dd>
        <Moment at={dateOf(webhook.createdAt)} never="" />
      </dd>
      <dt>Last changed</dt>
      <dd>
        <Moment at={dateOf(webhook.updatedAt)} never="" />
      </dd>
    </dl>
  );
}

/** Register (no registration yet) or change the URLs; notification checks each (HTTPS, public addresses). */
function WebhookForm(props: { registered: boolean; values: WebhookUrls; problems: Problems }) {
  const { registered, values, problems } = props;
  return (
    <PostForm action="/webhooks">
      <Field
        label="Collection URL"
        name="collection_url"
        defaultValue={values.collection_url}
        required
        hint="Receives collection and refund events (and customer status changes when there is no KYC URL). An https:// URL that resolves to public addresses."
        error={problems.collection_url}
        maxLength={2048}
      />
      <Field
        label="Payout URL"
        name="payout_url"
        defaultValue={values.payout_url}
        required
        hint="Receives payout events."
        error={problems.payout_url}
        maxLength={2048}
      />
      <Field
        label="KYC URL (optional)"
        name="kyc_url"
        defaultValue={values.kyc_url}
        hint={
          registered
            ? 'Receives merchant KYC session events and customer status changes. Leave it empty to remove it.'
            : 'Receives merchant KYC session events and customer status changes. Leave it empty if you do not use KYC sessions.'
        }
        error={problems.kyc_url}
        maxLength={2048}
      />
      <button type="submit">{registered ? 'Save the URLs' : 'Register the URLs'}</button>
    </PostForm>
  );
}

/** Decision 0065: how long the replaced secret keeps signing, as a member chooses it (hours → label). */
export const OVERLAP_HOURS: Readonly<Record<string, string>> = {
  '0': 'Not at all: the new secret alone, at once',
  '1': '1 hour',
  '24': '24 hours',
  '72': '3 days',
  '168': '7 days',
};
export const DEFAULT_OVERLAP_HOURS = '24';

/** Rotate the secret, and stop a replaced one early (decision 0065). */
function SigningSecretForms() {
  return (
    <>
      <h2>Rotate the signing secret</h2>
      <p>
        A new secret is shown once. For the overlap you choose, every webhook is signed with both the new and the
        previous secret (<code>webhook-signature</code> carries one signature of each; <code>x-corridor-signature</code>{' '}
        the new one), so your receiver can switch without missing a webhook.
      </p>
      <PostForm action="/webhooks/signing-secret/rotate">
        <div className="field">
          <label htmlFor="field-overlap_hours">Previous secret keeps signing for</label>
          <select id="field-overlap_hours" name="overlap_hours" defaultValue={DEFAULT_OVERLAP_HOURS}>
            {Object.entries(OVERLAP_HOURS).map(([hours, label]) => (
              <option key={hours} value={hours}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Rotate the secret</button>
      </PostForm>
      <PostForm action="/webhooks/signing-secret/retire">
        <p>Once your receiver uses the new secret, stop the previous one now instead of at the end of the overlap.</p>
        <button type="submit">Stop the previous secret</button>
      </PostForm>
    </>
  );
}

/** Decision 0068: why a URL was disabled, in the page's words. */
const REASONS: Record<string, string> = {
  gone: 'your receiver answered 410 Gone',
  failing_for: 'every delivery to it failed, after its retries, for 5 days',
  consecutive: '100 deliveries to it in a row failed, after their retries',
};

const URL_LABELS: Record<string, string> = {
  collection_url: 'Collection URL',
  payout_url: 'Payout URL',
  kyc_url: 'KYC URL',
};

const urlOfKind = (webhook: WebhookConfig, kind: string) =>
  kind === 'payout_url' ? webhook.payoutUrl : kind === 'kyc_url' ? webhook.kycUrl : webhook.collectionUrl;

/** One URL's health: enabled, or disabled since when and why, with the control to enable it. */
function UrlHealthFacts(props: { webhook: WebhookConfig; health: WebhookUrlHealth; mayManage: boolean }) {
  const { webhook, health, mayManage } = props;
  const kind = wordOf(DESTINATIONS, health.urlKind);
  const label = URL_LABELS[kind] ?? kind;
  if (!health.disabled) {
    return (
      <p>
        {label}: enabled
        {health.consecutiveFailures > 0
          ? `; the last ${health.consecutiveFailures} deliveries to it failed after their retries`
          : null}
        .
      </p>
    );
  }
  const reason = REASONS[wordOf(URL_DISABLED_REASONS, health.reason)] ?? 'it kept failing';
  return (
    <div className="warning" role="status">
      <p>
        {label} <code>{urlOfKind(webhook, kind)}</code> is disabled since{' '}
        <Moment at={dateOf(health.disabledAt)} never="" />: {reason}. Its events are kept in the event history and its
        deliveries are held, not attempted, until it is enabled (or changed above).
      </p>
      {mayManage ? (
        <PostForm action="/webhooks/endpoint/enable">
          <input type="hidden" name="kind" value={kind} />
          <div className="field">
            <label htmlFor={`field-replay-${kind}`}>The deliveries held while it was disabled</label>
            <select id={`field-replay-${kind}`} name="replay" defaultValue="yes">
              <option value="yes">Send them now, in order</option>
              <option value="no">Do not send them (mark them failed)</option>
            </select>
          </div>
          <button type="submit">Enable the {label}</button>
        </PostForm>
      ) : null}
    </div>
  );
}

export interface WebhookView {
  webhook?: WebhookConfig;
  mayManage: boolean;
  /** Sandbox and manage_webhooks: the mock event link. */
  mayMock: boolean;
  notice?: string;
  /** The form as sent, when it is shown again with problems. */
  values?: WebhookUrls;
  error?: string;
  problems?: Problems;
}

/** GET /webhooks: the registration (never its secret) and, for those who may, the form to change it. */
export function WebhookPage(props: WebhookView) {
  const { webhook, mayManage, mayMock, problems = {} } = props;
  const values = props.values ?? (webhook ? urlsOf(webhook) : { collection_url: '', payout_url: '', kyc_url: '' });
  return (
    <>
      <Notice message={props.notice} />
      <ErrorSummary message={props.error} />
      <p>
        Corridor sends signed webhooks to your URLs when collections, payouts, refunds, customers and KYC sessions
        change. Every webhook is signed with your signing secret (with both the new and the previous one during a
        rotation's overlap).
      </p>
      <p>
        <a href="/webhooks/deliveries">Delivery log</a>
        {mayMock ? (
          <>
            {' · '}
            <a href="/webhooks/mock-event">Send a mock event</a>
          </>
        ) : null}
      </p>
      {webhook ? (
        <>
          <h2>Registered URLs</h2>
          <WebhookFacts webhook={webhook} />
          {webhook.urlHealth.length > 0 ? (
            <>
              <h2>URL health</h2>
              {webhook.urlHealth.map((health) => (
                <UrlHealthFacts key={health.urlKind} webhook={webhook} health={health} mayManage={mayManage} />
              ))}
            </>
          ) : null}
        </>
      ) : (
        <p>No webhook URLs are registered yet, so no webhooks are sent.</p>
      )}
      {mayManage ? (
        <>
          <h2>{webhook ? 'Change the URLs' : 'Register webhook URLs'}</h2>
          {webhook ? <p>A change applies from the next attempt of every delivery; the signing secret stays.</p> : null}
          <WebhookForm registered={!!webhook} values={values} problems={problems} />
          {webhook ? <SigningSecretForms /> : null}
        </>
      ) : null}
    </>
  );
}

/** The only time a signing secret is shown: this answer to the registering or rotating POST (no-store). */
export function SigningSecretShownOnce({ webhook }: { webhook: WebhookConfig }) {
  const previousUntil = dateOf(webhook.previousSigningSecretExpiresAt);
  return (
    <>
      <p className="warning" role="status">
        Copy the signing secret now and keep it in your secret store. Corridor cannot show it again.
      </p>
      {previousUntil ? (
        <p>
          The previous secret (ending in {webhook.previousSigningSecretLast4}) signs beside it until{' '}
          <Moment at={previousUntil} never="" />.
        </p>
      ) : null}
      <dl className="facts">
        <dt>Signing secret</dt>
        <dd>
          <code id="signing-secret" className="secret">
            {webhook.signingSecret}
          </code>{' '}
          <button type="button" className="copy" data-copy="signing-secret" hidden>
            Copy secret
          </button>
        </dd>
      </dl>
      <p>
        Check each webhook with it: <code>x-corridor-signature</code> is the lowercase hex HMAC-SHA256, keyed with the
        secret, of <code>x-corridor-timestamp</code>, a dot and the raw request body. Reject a mismatch, and a timestamp
        more than 5 minutes from your clock.
      </p>
      <h2>Registered URLs</h2>
      <WebhookFacts webhook={webhook} />
      <p>
        <a href="/webhooks">Back to webhooks</a>
      </p>
    </>
  );
}
