import type { ReactNode } from 'react';
import { useFrame } from './frame.js';

/** The hidden field every POST form carries; a POST without the right one is refused (403). */
export function CsrfField() {
  return <input type="hidden" name="csrf_token" value={useFrame().csrfToken} />;
}

export function PostForm({ action, children, className }: { action: string; children: ReactNode; className?: string }) {
  return (
    <form method="post" action={action} className={className}>
      <CsrfField />
      {children}
    </form>
  );
}

interface FieldProps {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  required?: boolean;
  defaultValue?: string;
  hint?: string;
  error?: string;
  inputMode?: 'numeric';
  pattern?: string;
  maxLength?: number;
}

/** A label, its hint and its error around one control, tied to it for screen readers. */
function Labelled(props: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  control: (describedBy: string | undefined) => ReactNode;
}) {
  const { id, label, hint, error } = props;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field field-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {props.control(described || undefined)}
    </div>
  );
}

/** A labelled input with its hint and its error tied to it for screen readers. */
export function Field({ label, name, type = 'text', hint, error, ...input }: FieldProps) {
  const id = `field-${name}`;
  return (
    <Labelled
      id={id}
      label={label}
      hint={hint}
      error={error}
      control={(describedBy) => (
        <input
          id={id}
          name={name}
          type={type}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          {...input}
        />
      )}
    />
  );
}

/** A labelled multi-line field, as Field is for one line. */
export function TextArea(props: {
  label: string;
  name: string;
  defaultValue?: string;
  hint?: string;
  error?: string;
  maxLength?: number;
  rows?: number;
}) {
  const { label, name, hint, error } = props;
  const id = `field-${name}`;
  return (
    <Labelled
      id={id}
      label={label}
      hint={hint}
      error={error}
      control={(describedBy) => (
        <textarea
          id={id}
          name={name}
          defaultValue={props.defaultValue}
          rows={props.rows ?? 3}
          maxLength={props.maxLength}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
        />
      )}
    />
  );
}

/** A problem with what was sent, announced when the page loads. */
export function ErrorSummary({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <div className="error-summary" role="alert">
      <h2>There is a problem</h2>
      <p>{message}</p>
    </div>
  );
}

export function Notice({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p className="notice" role="status">
      {message}
    </p>
  );
}

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A moment as members read it (UTC, said so), machine-readable in datetime. */
export function Moment({ at, never = 'Never' }: { at: Date | undefined; never?: string }) {
  if (!at) return <>{never}</>;
  return <time dateTime={at.toISOString()}>{`${DATE.format(at)} UTC`}</time>;
}
