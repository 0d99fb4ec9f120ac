import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Fragment, type ReactNode } from 'react';
import { ErrorSummary, Moment } from '../layout/components.js';
import { moneyText, type Exponents } from './amount.js';
import { pageHref } from './money-query.js';

export function Money({ minor, currency, exponents }: { minor: bigint; currency: string; exponents: Exponents }) {
  return <span className="money">{moneyText(minor, currency, exponents)}</span>;
}

export const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

export function When({ at, never = '—' }: { at: Timestamp | undefined; never?: string }) {
  return <Moment at={dateOf(at)} never={never} />;
}

export type MoneySection = 'wallets' | 'transactions' | 'payouts' | 'collections' | 'refunds' | 'virtual-accounts';

const SECTIONS: [MoneySection, string, string][] = [
  ['wallets', '/money', 'Wallets'],
  ['transactions', '/money/transactions', 'Transactions'],
  ['payouts', '/money/transactions?type=PAYOUT', 'Payouts'],
  ['collections', '/money/transactions?type=COLLECTION', 'Collections'],
  ['refunds', '/money/transactions?type=REFUND', 'Refunds'],
  ['virtual-accounts', '/money/virtual-accounts', 'Virtual accounts'],
];

/** The Money pages' own navigation; payouts, collections and refunds are the transactions of that type. */
export function MoneyNavigation({ current }: { current?: MoneySection }) {
  return (
    <nav aria-label="Money" className="sub-navigation">
      <ul>
        {SECTIONS.map(([section, href, text]) => (
          <li key={section}>
            <a href={href} aria-current={section === current ? 'page' : undefined}>
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A list's filter problems, all named at once. */
export function FilterProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return <ErrorSummary message={problems.join(' ')} />;
}

export function TextFilter(props: { name: string; label: string; value?: string; hint?: string; maxLength?: number }) {
  const id = `filter-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.hint ? (
        <p className="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <input
        type="text"
        id={id}
        name={props.name}
        defaultValue={props.value ?? ''}
        maxLength={props.maxLength}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
    </div>
  );
}

export function SelectFilter(props: {
  name: string;
  label: string;
  value?: string;
  options: readonly (readonly [value: string, text: string])[];
}) {
  const id = `filter-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} name={props.name} defaultValue={props.value ?? ''}>
        <option value="">Any</option>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "Previous page" / "Next page" links that keep the filters; the cursors are payments'. */
export function PageLinks(props: {
  path: string;
  values: Record<string, string | undefined>;
  next?: string;
  previous?: string;
}) {
  if (!props.next && !props.previous) return null;
  return (
    <nav aria-label="Pages" className="pages">
      <ul>
        {props.previous ? (
          <li>
            <a href={pageHref(props.path, props.values, props.previous)} rel="prev">
              Previous page
            </a>
          </li>
        ) : null}
        {props.next ? (
          <li>
            <a href={pageHref(props.path, props.values, props.next)} rel="next">
              Next page
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** A definition list of facts; rows whose value is absent are left out. */
export function Facts({ label, rows }: { label: string; rows: readonly (readonly [string, ReactNode] | false)[] }) {
  return (
    <dl className="facts" aria-label={label}>
      {rows
        .filter((row): row is readonly [string, ReactNode] => row !== false && row[1] !== undefined && row[1] !== null)
        .map(([term, value]) => (
          <Fragment key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
    </dl>
  );
}
