import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Fragment } from 'react';
import { KycSessionStatus, type KycSession } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { wordOf } from '../customers/customer-words.js';
import { SandboxLink } from '../layout/sandbox-link.js';
import { CustomerAreaNavigation, FileState, FilterForm, Pager, WordSelect } from '../customers/list-components.js';
import { ErrorSummary, Moment } from '../layout/components.js';
import {
  KYC_REJECTION_TYPES,
  KYC_REQUIREMENTS,
  KYC_RESULTS,
  KYC_SESSION_STATUSES,
  verificationUrlOf,
} from './kyc-session-words.js';

const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

/** The verdict in the webhook's words: APPROVED, or REJECTED with its type; none before COMPLETED. */
function verdictOf(session: KycSession): string {
  if (session.result === undefined) return 'None yet';
  const result = wordOf(KYC_RESULTS, session.result);
  return session.rejectionType === undefined
    ? result
    : `${result} (${wordOf(KYC_REJECTION_TYPES, session.rejectionType)})`;
}

const requirementsOf = (session: KycSession) =>
  session.requirements.map((requirement) => wordOf(KYC_REQUIREMENTS, requirement)).join(', ');

function TextFilter(props: { label: string; name: string; hint: string; value?: string; error?: string }) {
  const id = `filter-${props.name}`;
  return (
    <div className={props.error ? 'field field-error' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <p className="hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      {props.error ? (
        <p className="error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
      <input
        id={id}
        name={props.name}
        type="text"
        defaultValue={props.value ?? ''}
        aria-describedby={props.error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={props.error ? true : undefined}
      />
    </div>
  );
}

export function KycSessionList(props: {
  sessions?: readonly KycSession[];
  filters: Partial<Record<string, string>>;
  problems: ReadonlyMap<string, string>;
  error?: string;
  nextCursor?: string;
  previousCursor?: string;
}) {
  const { filters, problems } = props;
  return (
    <>
      <CustomerAreaNavigation current="/kyc-sessions" />
      <ErrorSummary message={props.error} />
      <p>
        Merchant KYC sessions your platform started with the API’s <code>POST /kyc-session</code>, newest first.
      </p>
      <FilterForm action="/kyc-sessions" legend="Find KYC sessions">
        <TextFilter
          label="Customer reference"
          name="customer_reference"
          hint="Your reference for the person, given when the session was created, exactly."
          value={filters.customer_reference}
          error={problems.get('customer_reference')}
        />
        <TextFilter
          label="Customer id"
          name="customer_id"
          hint="Only sessions of this customer (a uuid)."
          value={filters.customer_id}
          error={problems.get('customer_id')}
        />
        <WordSelect
          label="Status"
          name="status"
          words={KYC_SESSION_STATUSES.words}
          value={filters.status}
          error={problems.get('status')}
        />
      </FilterForm>
      {props.sessions === undefined ? null : props.sessions.length === 0 ? (
        <p>No KYC sessions match.</p>
      ) : (
        <table>
          <caption>KYC sessions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Customer reference</th>
              <th scope="col">Status</th>
              <th scope="col">Verdict</th>
              <th scope="col">Requirements</th>
              <th scope="col">Customer</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((session) => (
              <tr key={session.id}>
                <th scope="row">
                  <a href={`/kyc-sessions/${encodeURIComponent(session.id)}`}>{session.customerReference}</a>
                </th>
                <td>{wordOf(KYC_SESSION_STATUSES, session.status)}</td>
                <td>{verdictOf(session)}</td>
                <td>{requirementsOf(session)}</td>
                <td>
                  {session.customerId ? (
                    <a href={`/customers/${encodeURIComponent(session.customerId)}`}>
                      <code>{session.customerId}</code>
                    </a>
                  ) : (
                    'None'
                  )}
                </td>
                <td>
                  <Moment at={dateOf(session.createdAt)} never="" />
                </td>
                <td>
                  <Moment at={dateOf(session.expiresAt)} never="" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        path="/kyc-sessions"
        filters={Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined)}
        nextCursor={props.nextCursor}
        previousCursor={props.previousCursor}
      />
    </>
  );
}

export function KycSessionDetail({ session, apiBaseUrl }: { session: KycSession; apiBaseUrl: string }) {
  const verificationUrl = verificationUrlOf(session, apiBaseUrl);
  const moments: [label: string, at: Timestamp | undefined][] = [
    ['Created', session.createdAt],
    ['Updated', session.updatedAt],
    ['Expires', session.expiresAt],
    ['Submitted by the person', session.submittedAt],
    ['Completed', session.completedAt],
    ['Expired', session.expiredAt],
    ['Cancelled', session.cancelledAt],
  ];
  return (
    <>
      <CustomerAreaNavigation current="/kyc-sessions" />
      {session.status === KycSessionStatus.PROCESSING ? (
        <SandboxLink field="session_id" id={session.id} text="Give it a verdict with the sandbox tools" />
      ) : null}
      <dl className="facts">
        <dt>Session id</dt>
        <dd>
          <code>{session.id}</code>
        </dd>
        <dt>Customer reference</dt>
        <dd>{session.customerReference}</dd>
        <dt>Status</dt>
        <dd>{wordOf(KYC_SESSION_STATUSES, session.status)}</dd>
        <dt>Verdict</dt>
        <dd>{verdictOf(session)}</dd>
        {session.rejectionReason !== undefined ? (
          <>
            <dt>Rejection reason</dt>
            <dd>{session.rejectionReason}</dd>
          </>
        ) : null}
        <dt>Requirements</dt>
        <dd>{requirementsOf(session)}</dd>
        <dt>Customer</dt>
        <dd>
          {session.customerId ? (
            <a href={`/customers/${encodeURIComponent(session.customerId)}`}>
              <code>{session.customerId}</code>
            </a>
          ) : (
            'None named'
          )}
        </dd>
        <dt>Verification page</dt>
        <dd>
          {verificationUrl ? (
            <>
              <a href={verificationUrl} rel="noreferrer">
                <code>{verificationUrl}</code>
              </a>
              <br />
              Send this link to the person; it works while the session is PENDING.
            </>
          ) : (
            'Not shown: the session is no longer waiting for the person.'
          )}
        </dd>
        <dt>Redirect after submitting</dt>
        <dd>{session.redirectUrl ? <code>{session.redirectUrl}</code> : 'None'}</dd>
        {moments.map(([label, at]) =>
          at ? (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>
                <Moment at={dateOf(at)} />
              </dd>
            </Fragment>
          ) : null,
        )}
      </dl>
      <h2>What the person gave</h2>
      {session.captures.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <table>
          <caption>Captures of this session</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">File</th>
              <th scope="col">Captured</th>
            </tr>
          </thead>
          <tbody>
            {session.captures.map((capture) => (
              <tr key={capture.fileId}>
                <th scope="row">{capture.kind}</th>
                <td>
                  <FileState file={capture} />
                </td>
                <td>
                  <Moment at={dateOf(capture.capturedAt)} never="" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a href="/kyc-sessions">Back to KYC sessions</a>
      </p>
    </>
  );
}
