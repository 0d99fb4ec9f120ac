import type { ReactNode } from 'react';
import { pageHref } from './list-query.js';

/** Customers and KYC sessions are one area of the API (customer:read): a sub-navigation joins them. */
export function CustomerAreaNavigation({ current }: { current: '/customers' | '/kyc-sessions' }) {
  const links: [href: '/customers' | '/kyc-sessions', text: string][] = [
    ['/customers', 'Customers'],
    ['/kyc-sessions', 'KYC sessions'],
  ];
  return (
    <nav aria-label="Customers and KYC">
      <ul>
        {links.map(([href, text]) => (
          <li key={href}>
            <a href={href} aria-current={href === current ? 'page' : undefined}>
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A labelled select of an enum's words, "Any" first (the filter left out). */
export function WordSelect(props: {
  label: string;
  name: string;
  words: readonly string[];
  value?: string;
  error?: string;
}) {
  const id = `filter-${props.name}`;
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
        defaultValue={props.words.includes(props.value ?? '') ? props.value : ''}
        aria-describedby={props.error ? `${id}-error` : undefined}
        aria-invalid={props.error ? true : undefined}
      >
        <option value="">Any</option>
        {props.words.map((word) => (
          <option key={word} value={word}>
            {word}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The filters of a list: a GET form, so a filtered page is a link a member can share. */
export function FilterForm({ action, legend, children }: { action: string; legend: string; children: ReactNode }) {
  return (
    <form method="get" action={action}>
      <fieldset>
        <legend>{legend}</legend>
        {children}
        <button type="submit">Apply filters</button> <a href={action}>Clear filters</a>
      </fieldset>
    </form>
  );
}

/** Cursor pages: each link carries the filters and the cursor the service returned. */
export function Pager(props: {
  path: string;
  filters: readonly [string, string][];
  nextCursor?: string;
  previousCursor?: string;
}) {
  if (!props.nextCursor && !props.previousCursor) return null;
  return (
    <nav aria-label="Pages">
      <p>
        {props.previousCursor ? (
          <a href={pageHref(props.path, props.filters, props.previousCursor)} rel="prev">
            Previous page
          </a>
        ) : null}{' '}
        {props.nextCursor ? (
          <a href={pageHref(props.path, props.filters, props.nextCursor)} rel="next">
            Next page
          </a>
        ) : null}
      </p>
    </nav>
  );
}

/** A stored file's state in words: what it is and when it came, or that the slot is empty. */
export function FileState({
  file,
  empty = 'Missing',
}: {
  file?: { contentType: string; sizeBytes: bigint };
  empty?: string;
}) {
  if (!file) return <>{empty}</>;
  // bigint formatting: sizes are uint64, never rounded through a double.
  return <>{`Uploaded (${file.contentType}, ${file.sizeBytes.toLocaleString('en-GB')} bytes)`}</>;
}
