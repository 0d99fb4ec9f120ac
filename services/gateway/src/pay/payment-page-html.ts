import type { PaymentRequestView } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { returnUrlWith } from '../http/return-url.js';
import { escapeHtml, htmlPage, noticePage, pageTime, styleSource } from '../floor/html-page.js';

/**
 * The payer's pages of a money request: plain HTML forms, no script. Every value is escaped; the
 * one stylesheet is inline and allowed by its hash, so the policy can refuse everything else.
 */

const STYLE = [
  'body{font-family:system-ui,-apple-system,sans-serif;margin:0;background:#f5f6f8;color:#1b1f24}',
  'main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}',
  'h1{font-size:1.25rem;margin:0 0 1rem}',
  '.amount{font-size:2rem;font-weight:600;margin:.5rem 0 1.5rem}',
  'dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem;margin:0 0 1.5rem}',
  'dt{color:#5b6470}dd{margin:0;overflow-wrap:anywhere}',
  'form{display:inline}',
  'button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #1b1f24;cursor:pointer;margin-right:.5rem}',
  '.approve{background:#1b1f24;color:#fff}.decline{background:#fff;color:#1b1f24}',
  'a{color:#0b57d0}',
].join('');

/** Only this page's own stylesheet, its own form targets and a redirect to the business (https) run. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${styleSource(STYLE)}`,
  "form-action 'self' https:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Minor units as the payer reads them: NGN 15,000.00 (every currency of money requests has 2 decimals). */
export function formatAmount(amount: bigint, currency: string): string {
  const sign = amount < 0n ? '-' : '';
  const units = amount < 0n ? -amount : amount;
  const whole = (units / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = (units % 100n).toString().padStart(2, '0');
  return `${sign}${currency} ${whole}.${cents}`;
}

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'Awaiting your answer',
  SUCCESSFUL: 'Paid',
  FAILED: 'Not paid',
  EXPIRED: 'Expired',
};
const statusText = (status: string) => STATUS_TEXT[status] ?? status;

/**
 * Where the payer goes once the request is answered: the business's https redirect_url with
 * transaction_id and status appended to the query it already has (seed 4.4).
 */
export const returnUrlOf = (view: PaymentRequestView): string | undefined =>
  returnUrlWith(view.redirectUrl, { transaction_id: view.transactionId, status: view.status.toUpperCase() });

const page = (title: string, body: string) => htmlPage(STYLE, title, body);

function details(view: PaymentRequestView): string {
  const expires = view.expiresAt ? pageTime(view.expiresAt) : '—';
  return `<p><strong>${escapeHtml(view.businessName)}</strong> asks you to pay</p>
<p class="amount">${escapeHtml(formatAmount(view.amount, view.currency))}</p>
<dl>
<dt>For</dt><dd>${escapeHtml(view.description)}</dd>
<dt>Status</dt><dd>${escapeHtml(statusText(view.status))}</dd>
<dt>Expires</dt><dd>${escapeHtml(expires)}</dd>
</dl>`;
}

function returnLink(view: PaymentRequestView): string {
  const url = returnUrlOf(view);
  return url ? `<p><a href="${escapeHtml(url)}">Return to ${escapeHtml(view.businessName)}</a></p>` : '';
}

/** The request, with Approve and Decline while it is pending. */
export function requestPage(view: PaymentRequestView, token: string): string {
  const action = (answer: string) => `/pay/${encodeURIComponent(token)}/${answer}`;
  const answers =
    view.status === 'PENDING'
      ? `<form method="post" action="${escapeHtml(action('approve'))}"><button type="submit" class="approve">Approve and pay</button></form>
<form method="post" action="${escapeHtml(action('decline'))}"><button type="submit" class="decline">Decline</button></form>`
      : returnLink(view);
  return page(`Pay ${view.businessName}`, `<h1>Payment request</h1>\n${details(view)}\n${answers}`);
}

const OUTCOME_TITLE: Record<string, string> = {
  SUCCESSFUL: 'Payment successful',
  FAILED: 'Payment not made',
  EXPIRED: 'Payment request expired',
};

/** After the payer answered, when the business gave no redirect_url. */
export function resultPage(view: PaymentRequestView): string {
  const title = OUTCOME_TITLE[view.status] ?? 'Payment request';
  return page(title, `<h1>${escapeHtml(title)}</h1>\n${details(view)}`);
}

/** The payer answered a request that was no longer pending (paid, declined or expired before). */
export function notPendingPage(view: PaymentRequestView): string {
  const title = 'This payment request can no longer be answered';
  const status = `<p>It is ${escapeHtml(view.status)}: nothing was charged now.</p>`;
  return page(title, `<h1>${escapeHtml(title)}</h1>\n${status}\n${details(view)}\n${returnLink(view)}`);
}

export const notFoundPage = () =>
  noticePage(
    STYLE,
    'Payment request not found',
    'This payment link is not valid. Check the link you were sent, or ask whoever sent it for a new one.',
  );

export const unavailablePage = () =>
  noticePage(
    STYLE,
    'Please try again',
    'Payments could not be reached just now. Reload this page shortly to see where the request stands.',
  );

export const failurePage = () =>
  noticePage(
    STYLE,
    'Something went wrong',
    'Your answer could not be recorded. Reload this page to see where the request stands.',
  );
