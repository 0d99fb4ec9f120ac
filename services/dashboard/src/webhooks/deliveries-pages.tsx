import {
  AttemptErrorClass,
  AttemptOutcome,
  type WebhookAttempt,
  type WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { ErrorSummary, Moment, Notice, PostForm, TextArea } from '../layout/components.js';
import { deliveriesHref, parseUtcInput, TIME_HINT, type DeliveryFilters, type Problems } from './delivery-filters.js';
import {
  ATTEMPT_ERROR_CLASSES,
  ATTEMPT_OUTCOMES,
  ATTEMPT_TRIGGERS,
  DELIVERY_STATUSES,
  DESTINATIONS,
  EVENT_WORDS,
  WEBHOOK_EVENTS,
} from '@corridor/grpc/notification-words';
import { wordOf } from './vocabulary.js';
import { dateOf } from './webhooks-pages.js';

/** Decision 0068: why a delivery is not attempted, in the log's words. */
const SKIPPED_WORDS = 'held: URL disabled';
const SKIPPED_SENTENCE =
  'not attempted while its URL is disabled (see Webhooks); enabling it with its backlog sends this delivery';

/** A labelled select whose problem is tied to it, as Field does for inputs. */
function SelectField(props: {
  label: string;
  name: string;
  options: readonly string[];
  value: string;
  any?: string;
  error?: string;
  required?: boolean;
}) {
  const id = `field-${props.name}`;
  return (
    <div className={props.error ? 'field field-error' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.error ? (
        <p className="error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
      <select
        id={id}
        name={props.name}
        defaultValue={props.value}
        required={props.required}
        aria-describedby={props.error ? `${id}-error` : undefined}
        aria-invalid={props.error ? true : undefined}
      >
        {props.any === undefined ? null : <option value="">{props.any}</option>}
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}

/** What datetime-local shows: a readable value in its form (a date alone gains 00:00), else as typed. */
function asLocalInput(value: string): string {
  const date = parseUtcInput(value);
  return date ? date.toISOString().slice(0, date.getUTCSeconds() === 0 ? 16 : 19) : value;
}

/** A date and time in UTC (datetime-local; typed text works too where the browser has no picker). */
function TimeField(props: { label: string; name: string; value: string; error?: string; required?: boolean }) {
  const id = `field-${props.name}`;
  const described = [`${id}-hint`, props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={props.error ? 'field field-error' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <p className="hint" id={`${id}-hint`}>
        {TIME_HINT}
      </p>
      {props.error ? (
        <p className="error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
      <input
        id={id}
        name={props.name}
        type="datetime-local"
        defaultValue={asLocalInput(props.value)}
        required={props.required}
        aria-describedby={described}
        aria-invalid={props.error ? true : undefined}
      />
    </div>
  );
}

function FilterForm({ filters, problems }: { filters: DeliveryFilters; problems: Problems }) {
  return (
    <form method="get" action="/webhooks/deliveries" aria-label="Filter deliveries">
      <SelectField
        label="Status"
        name="status"
        options={DELIVERY_STATUSES.words}
        value={filters.status}
        any="Any status"
        error={problems.status}
      />
      <SelectField
        label="Event"
        name="event"
        options={WEBHOOK_EVENTS}
        value={filters.event}
        any="Any event"
        error={problems.event}
      />
      <TimeField label="Created from" name="from" value={filters.from} error={problems.from} />
      <TimeField label="Created before" name="to" value={filters.to} error={problems.to} />
      <button type="submit">Filter</button> <a href="/webhooks/deliveries">Clear filters</a>
    </form>
  );
}

export interface ReplayWindow {
  since: string;
  until: string;
}

/** ReplayFailedDeliveries' window: failed deliveries created in [since, until); until empty is now. */
export function ReplayFailedForm({ values, problems = {} }: { values: ReplayWindow; problems?: Problems }) {
  return (
    <PostForm action="/webhooks/deliveries/replay-failed">
      <p>
        Queues one more attempt of every failed delivery created in the window, at most 1,000 at a time; they are sent
        in the background.
      </p>
      <TimeField
        label="Failed deliveries created from"
        name="since"
        value={values.since}
        error={problems.since}
        required
      />
      <TimeField label="Created before (empty: now)" name="until" value={values.until} error={problems.until} />
      <button type="submit">Replay failed deliveries</button>
    </PostForm>
  );
}

export interface DeliveriesView {
  deliveries: readonly WebhookDelivery[];
  filters: DeliveryFilters;
  problems?: Problems;
  error?: string;
  notice?: string;
  nextCursor?: string;
  previousCursor?: string;
  mayManage: boolean;
  mayMock: boolean;
}

/** GET /webhooks/deliveries: the log, newest first, with every filter ListDeliveries takes. */
export function DeliveriesPage(props: DeliveriesView) {
  const { deliveries, filters, problems = {} } = props;
  return (
    <>
      <Notice message={props.notice} />
      <ErrorSummary message={props.error} />
      <p>
        <a href="/webhooks">Webhook URLs</a>
        {props.mayMock ? (
          <>
            {' · '}
            <a href="/webhooks/mock-event">Send a mock event</a>
          </>
        ) : null}
      </p>
      <FilterForm filters={filters} problems={problems} />
      {deliveries.length === 0 ? (
        <p>No deliveries match.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Webhook deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Sent to</th>
              <th scope="col">Attempts</th>
              <th scope="col">Next attempt</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <th scope="row">
                  <a href={`/webhooks/deliveries/${delivery.id}`}>
                    {wordOf(EVENT_WORDS, delivery.eventType)}
                    <span className="visually-hidden">{` delivery ${delivery.id}`}</span>
                  </a>
                  {delivery.mock ? ' (mock)' : null}
                </th>
                <td>
                  {wordOf(DELIVERY_STATUSES, delivery.status)}
                  {delivery.skippedReason ? ` (${SKIPPED_WORDS})` : null}
                </td>
                <td>
                  <code>{delivery.url}</code>
                </td>
                <td>{delivery.attemptCount}</td>
                <td>
                  <Moment at={dateOf(delivery.nextAttemptAt)} never="None" />
                </td>
                <td>
                  <Moment at={dateOf(delivery.createdAt)} never="" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.previousCursor || props.nextCursor ? (
        <nav aria-label="Pages of deliveries">
          {props.previousCursor ? <a href={deliveriesHref(filters, props.previousCursor)}>Previous page</a> : null}
          {props.previousCursor && props.nextCursor ? ' · ' : null}
          {props.nextCursor ? <a href={deliveriesHref(filters, props.nextCursor)}>Next page</a> : null}
        </nav>
      ) : null}
      {props.mayManage ? (
        <>
          <h2>Replay failed deliveries</h2>
          <ReplayFailedForm values={{ since: '', until: '' }} />
        </>
      ) : null}
    </>
  );
}

/** Outcomes no answer ended: there is no duration to show. */
const UNANSWERED = new Set([AttemptOutcome.IN_FLIGHT, AttemptOutcome.INTERRUPTED]);

function AttemptError({ attempt }: { attempt: WebhookAttempt }) {
  if (attempt.errorClass === AttemptErrorClass.UNSPECIFIED && !attempt.errorMessage) return <>None</>;
  const errorClass =
    attempt.errorClass === AttemptErrorClass.UNSPECIFIED ? '' : wordOf(ATTEMPT_ERROR_CLASSES, attempt.errorClass);
  return <>{[errorClass, attempt.errorMessage].filter(Boolean).join(': ')}</>;
}

function AttemptTable({ attempts }: { attempts: readonly WebhookAttempt[] }) {
  if (attempts.length === 0) return <p>No attempt has been made yet.</p>;
  return (
    <table>
      <caption className="visually-hidden">Attempts of this delivery, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Attempt</th>
          <th scope="col">Started</th>
          <th scope="col">Made by</th>
          <th scope="col">Outcome</th>
          <th scope="col">HTTP status</th>
          <th scope="col">Duration</th>
          <th scope="col">Error</th>
          <th scope="col">Reply</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.number}>
            <th scope="row">{attempt.number}</th>
            <td>
              <Moment at={dateOf(attempt.startedAt)} never="" />
            </td>
            <td>{wordOf(ATTEMPT_TRIGGERS, attempt.trigger)}</td>
            <td>{wordOf(ATTEMPT_OUTCOMES, attempt.outcome).replace('_', ' ')}</td>
            <td>{attempt.statusCode === 0 ? 'None' : attempt.statusCode}</td>
            <td>{UNANSWERED.has(attempt.outcome) ? 'None' : `${attempt.durationMs} ms`}</td>
            <td>
              <AttemptError attempt={attempt} />
            </td>
            <td>{attempt.responseBody ? <code>{attempt.responseBody}</code> : 'None'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** GET /webhooks/deliveries/:id: the delivery, its exact body and every attempt. */
export function DeliveryPage(props: { delivery: WebhookDelivery; mayManage: boolean; notice?: string }) {
  const { delivery } = props;
  return (
    <>
      <Notice message={props.notice} />
      <dl className="facts">
        <dt>Event</dt>
        <dd>
          <code>{wordOf(EVENT_WORDS, delivery.eventType)}</code>
          {delivery.mock ? ' (mock: sent once, never retried)' : null}
        </dd>
        <dt>Event id</dt>
        <dd>
          <code>{delivery.eventId}</code>
        </dd>
        <dt>Delivery id</dt>
        <dd>
          <code>{delivery.id}</code>
        </dd>
        <dt>Sent to</dt>
        <dd>
          <code>{delivery.url}</code> ({wordOf(DESTINATIONS, delivery.destination)})
        </dd>
        <dt>Status</dt>
        <dd>
          {wordOf(DELIVERY_STATUSES, delivery.status)}
          {delivery.skippedReason ? `: ${SKIPPED_SENTENCE}` : null}
        </dd>
        <dt>Attempts</dt>
        <dd>{delivery.attemptCount}</dd>
        <dt>Next attempt</dt>
        <dd>
          <Moment at={dateOf(delivery.nextAttemptAt)} never="None scheduled" />
        </dd>
        <dt>Created</dt>
        <dd>
          <Moment at={dateOf(delivery.createdAt)} never="" />
        </dd>
        <dt>Last changed</dt>
        <dd>
          <Moment at={dateOf(delivery.updatedAt)} never="" />
        </dd>
      </dl>
      {props.mayManage ? (
        <PostForm action={`/webhooks/deliveries/${delivery.id}/replay`}>
          <p>A replay sends the same body now, freshly signed, and waits up to 30 seconds for your reply.</p>
          <button type="submit">Replay this delivery</button>
        </PostForm>
      ) : null}
      <h2>Body</h2>
      <p>The exact bytes every attempt sends and signs.</p>
      {/* Focusable: a long body scrolls sideways, and a keyboard must reach it (axe scrollable-region-focusable). */}
      <pre tabIndex={0} aria-label="Delivery body">
        <code>{delivery.body}</code>
      </pre>
      <h2>Attempts</h2>
      <AttemptTable attempts={delivery.attempts} />
      <p>
        <a href="/webhooks/deliveries">Back to the delivery log</a>
      </p>
    </>
  );
}

/** The answer to a bulk replay: how many were queued; 1,000 is the most one call queues. */
export function ReplayQueued({ queued }: { queued: number }) {
  return (
    <>
      <p role="status">
        {queued === 1
          ? '1 failed delivery was queued for one more attempt.'
          : `${queued} failed deliveries were queued for one more attempt.`}
      </p>
      {queued >= 1000 ? (
        <p>One replay queues at most 1,000: there may be more failed deliveries in the window. Replay it again.</p>
      ) : null}
      <p>The attempts are made in the background; their outcomes appear in the delivery log.</p>
      <p>
        <a href="/webhooks/deliveries?status=failed">Failed deliveries</a> ·{' '}
        <a href="/webhooks/deliveries">Delivery log</a>
      </p>
    </>
  );
}

export interface MockValues {
  event: string;
  data: string;
}

/** Sandbox only: TriggerMockWebhook sends a signed example of the event to the URL it goes to. */
export function MockEventForm(props: { values: MockValues; problems?: Problems; error?: string }) {
  const { values, problems = {} } = props;
  return (
    <>
      <ErrorSummary message={props.error} />
      <p>
        Sends a signed example of the event, once, to the registered URL that event goes to. It is logged as a mock
        delivery and never retried.
      </p>
      <PostForm action="/webhooks/mock-event">
        <SelectField
          label="Event"
          name="event"
          options={WEBHOOK_EVENTS}
          value={values.event}
          error={problems.event}
          required
        />
        <TextArea
          label="Fields to replace (optional)"
          name="data"
          rows={4}
          hint={
            'A JSON object of the example\'s data fields to change, e.g. {"new_status": "VERIFIED"} for customer.status_changed.'
          }
          defaultValue={values.data}
          error={problems.data}
        />
        <button type="submit">Send the mock event</button>
      </PostForm>
      <p>
        <a href="/webhooks/deliveries">Back to the delivery log</a>
      </p>
    </>
  );
}
