import type { ReactNode } from 'react';
import { ErrorSummary, Field, PostForm, TextArea } from '../layout/components.js';
import { IDEMPOTENCY_FIELD } from '../members/idempotent-call.js';

/** The four simulations, each a form of its own posting to /sandbox/<form>. */
export const FORMS = ['incoming-transfer', 'money-request', 'customer-review', 'kyc-verdict'] as const;
export type FormName = (typeof FORMS)[number];

/** The forms' fields, named as the services name them, so a service's field error lands on its input. */
export const FIELDS = [
  'virtual_account_id',
  'amount',
  'sender_name',
  'collection_id',
  'outcome',
  'customer_id',
  'verdict',
  'comment',
  'session_id',
  'result',
  'rejection_type',
  'rejection_reason',
] as const;
export type FieldName = (typeof FIELDS)[number];
export type FormValues = Partial<Record<FieldName, string>>;

/** Why a simulation did not run: a message for the summary, problems by field, and the rest. */
export interface Problem {
  form: FormName;
  message: string;
  fields: Partial<Record<FieldName, string>>;
  /** Problems of things the form has no input for (e.g. a customer's owners the review needs approved). */
  others: string[];
}

export interface SandboxView {
  values: FormValues;
  /** A fresh idempotency key per form, made at render. */
  keys: Record<FormName, string>;
  problem?: Problem;
}

function Select({
  label,
  name,
  options,
  value,
  error,
}: {
  label: string;
  name: FieldName;
  options: readonly [value: string, text: string][];
  value?: string;
  error?: string;
}) {
  const id = `field-${name}`;
  return (
    <div className={error ? 'field field-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <select
        id={id}
        name={name}
        defaultValue={value}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-invalid={error ? true : undefined}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function Simulation({
  form,
  heading,
  intro,
  view,
  button,
  children,
}: {
  form: FormName;
  heading: string;
  intro: string;
  view: SandboxView;
  button: string;
  children: ReactNode;
}) {
  const problem = view.problem?.form === form ? view.problem : undefined;
  return (
    <section aria-labelledby={`${form}-heading`}>
      <h2 id={`${form}-heading`}>{heading}</h2>
      <p>{intro}</p>
      <ErrorSummary message={problem?.message} />
      {problem && problem.others.length > 0 ? (
        <ul className="error">
          {problem.others.map((other) => (
            <li key={other}>{other}</li>
          ))}
        </ul>
      ) : null}
      <PostForm action={`/sandbox/${form}`}>
        <input type="hidden" name={IDEMPOTENCY_FIELD} value={view.keys[form]} />
        {children}
        <button type="submit">{button}</button>
      </PostForm>
    </section>
  );
}

/** /sandbox: the four simulations on one page; a refused one is shown again with its values and problem. */
export function SandboxPage(view: SandboxView) {
  const { values } = view;
  const errorOf = (form: FormName, field: FieldName) =>
    view.problem?.form === form ? view.problem.fields[field] : undefined;
  return (
    <>
      <p>
        Play the other side of a test journey: the bank, the payer, Corridor’s reviewers and the identity provider. Each
        simulation sends the same webhooks as the real event. None exists in production.
      </p>
      <Simulation
        form="incoming-transfer"
        view={view}
        heading="Simulate an incoming transfer"
        intro="A bank transfer arrives in one of your customers’ virtual accounts and is collected at once (a closed account bounces it)."
        button="Send the transfer"
      >
        <Field
          label="Virtual account ID"
          name="virtual_account_id"
          required
          autoComplete="off"
          defaultValue={values.virtual_account_id}
          error={errorOf('incoming-transfer', 'virtual_account_id')}
        />
        <Field
          label="Amount"
          name="amount"
          required
          autoComplete="off"
          hint="In the account’s currency, in major units: 1000.50 is one thousand and fifty hundredths."
          defaultValue={values.amount}
          error={errorOf('incoming-transfer', 'amount')}
        />
        <Field
          label="Sender’s name"
          name="sender_name"
          required
          maxLength={100}
          autoComplete="off"
          defaultValue={values.sender_name ?? 'Sandbox Sender'}
          error={errorOf('incoming-transfer', 'sender_name')}
        />
      </Simulation>
      <Simulation
        form="money-request"
        view={view}
        heading="Answer a money request"
        intro="The payer of a pending money request (or Interac request) pays or declines it, or its expiry time comes now."
        button="Apply the outcome"
      >
        <Field
          label="Money request (collection) ID"
          name="collection_id"
          required
          autoComplete="off"
          defaultValue={values.collection_id}
          error={errorOf('money-request', 'collection_id')}
        />
        <Select
          label="Outcome"
          name="outcome"
          value={values.outcome}
          error={errorOf('money-request', 'outcome')}
          options={[
            ['pay', 'The payer pays'],
            ['decline', 'The payer declines'],
            ['expire', 'It expires now'],
          ]}
        />
      </Simulation>
      <Simulation
        form="customer-review"
        view={view}
        heading="Review a customer"
        intro="Corridor’s review of a submitted customer (PROCESSING): every owner and document under review is approved (VERIFIED) or rejected (REJECTED) with it."
        button="Give the verdict"
      >
        <Field
          label="Customer ID"
          name="customer_id"
          required
          autoComplete="off"
          defaultValue={values.customer_id}
          error={errorOf('customer-review', 'customer_id')}
        />
        <Select
          label="Verdict"
          name="verdict"
          value={values.verdict}
          error={errorOf('customer-review', 'verdict')}
          options={[
            ['VERIFIED', 'VERIFIED'],
            ['REJECTED', 'REJECTED'],
          ]}
        />
        <TextArea
          label="Comment (optional)"
          name="comment"
          maxLength={2000}
          hint="The reviewer’s comment on each owner and document judged, as a real review gives it."
          defaultValue={values.comment}
          error={errorOf('customer-review', 'comment')}
        />
      </Simulation>
      <Simulation
        form="kyc-verdict"
        view={view}
        heading="Give a KYC session its verdict"
        intro="The identity provider’s verdict on an open KYC session: it completes the session."
        button="Give the verdict"
      >
        <Field
          label="KYC session ID"
          name="session_id"
          required
          autoComplete="off"
          defaultValue={values.session_id}
          error={errorOf('kyc-verdict', 'session_id')}
        />
        <Select
          label="Result"
          name="result"
          value={values.result}
          error={errorOf('kyc-verdict', 'result')}
          options={[
            ['APPROVED', 'APPROVED'],
            ['REJECTED', 'REJECTED'],
          ]}
        />
        <Select
          label="Rejection type (when REJECTED)"
          name="rejection_type"
          value={values.rejection_type}
          error={errorOf('kyc-verdict', 'rejection_type')}
          options={[
            ['RETRYABLE', 'RETRYABLE: the person may try again'],
            ['FINAL', 'FINAL'],
          ]}
        />
        <TextArea
          label="Rejection reason (when REJECTED)"
          name="rejection_reason"
          maxLength={500}
          hint="Text the person may be shown."
          defaultValue={values.rejection_reason}
          error={errorOf('kyc-verdict', 'rejection_reason')}
        />
      </Simulation>
    </>
  );
}

/** What a simulation did, with a link to the object it changed. */
export function SimulationResult({
  summary,
  details,
  link,
  replayed,
}: {
  summary: string;
  details: readonly [term: string, value: string][];
  link: { href: string; text: string };
  replayed: boolean;
}) {
  return (
    <>
      {replayed ? (
        <p className="notice" role="status">
          This form had already been sent: nothing was simulated again, this is the first result.
        </p>
      ) : null}
      <p role="status">{summary}</p>
      <dl>
        {details.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p>
        <a href={link.href}>{link.text}</a>
      </p>
      <p>
        <a href="/sandbox">Run another simulation</a>
      </p>
    </>
  );
}
