import { SandboxLink } from '../layout/sandbox-link.js';
import { IDEMPOTENCY_FIELD } from '../members/idempotent-call.js';
import {
  VirtualAccountStatus,
  type Refund,
  type VirtualAccount,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import type { Wallet } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { ErrorSummary, Field, Notice, PostForm } from '../layout/components.js';
import {
  Facts,
  FilterProblems,
  Money,
  MoneyNavigation,
  PageLinks,
  SelectFilter,
  TextFilter,
  When,
  type MoneySection,
} from './money-components.js';
import { moneyText, type Exponents } from './amount.js';
import type { FilterValues, TransactionFilterName, VirtualAccountFilterName } from './money-query.js';
import {
  adjustmentDirectionText,
  amountSideText,
  closeReasonText,
  collectionFailureText,
  collectionMethodText,
  inWords,
  payoutFailureText,
  payoutStatusText,
  refundStatusText,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  transactionStatusText,
  transactionTypeText,
  VIRTUAL_ACCOUNT_STATUSES,
  virtualAccountStatusText,
} from './vocabulary.js';

const transactionHref = (id: string) => `/money/transactions/${encodeURIComponent(id)}`;
const virtualAccountHref = (id: string) => `/money/virtual-accounts/${encodeURIComponent(id)}`;
const customerHref = (id: string) => `/customers/${encodeURIComponent(id)}`;

/** Payouts, Collections and Refunds are the transactions list with its type filter set. */
const SECTION_OF_TYPE: Record<string, [MoneySection, string]> = {
  PAYOUT: ['payouts', 'Payouts'],
  COLLECTION: ['collections', 'Collections'],
  REFUND: ['refunds', 'Refunds'],
};

const typeWordOf = (type: TransactionType): string | undefined => {
  try {
    return TRANSACTION_TYPES.toWord(type, 'type');
  } catch {
    return undefined;
  }
};

export function transactionsTitle(type: string | undefined): [MoneySection, string] {
  return (type && SECTION_OF_TYPE[type]) || ['transactions', 'Transactions'];
}

// ---- Wallets

export function WalletsPage({ wallets, exponents }: { wallets: readonly Wallet[]; exponents: Exponents }) {
  return (
    <>
      <MoneyNavigation current="wallets" />
      <p>
        One wallet per currency. <strong>Available</strong> is what you can spend now, <strong>pending</strong> is
        reserved by payouts and refunds not yet final, and <strong>ledger</strong> is the posted balance.
      </p>
      {wallets.length === 0 ? (
        <p>There are no wallets yet.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Wallets by currency</caption>
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col">Available</th>
              <th scope="col">Pending</th>
              <th scope="col">Ledger</th>
              <th scope="col">Last movement</th>
            </tr>
          </thead>
          <tbody>
            {wallets.map((wallet) => (
              <tr key={wallet.currency}>
                <th scope="row">
                  <a href={`/money/transactions?currency=${encodeURIComponent(wallet.currency)}`}>
                    {wallet.currency}
                    <span className="visually-hidden"> transactions</span>
                  </a>
                </th>
                <td>
                  <Money minor={wallet.availableBalance} currency={wallet.currency} exponents={exponents} />
                </td>
                <td>
                  <Money minor={wallet.pendingBalance} currency={wallet.currency} exponents={exponents} />
                </td>
                <td>
                  <Money minor={wallet.ledgerBalance} currency={wallet.currency} exponents={exponents} />
                </td>
                <td>
                  <When at={wallet.updatedAt} never="No movement yet" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

// ---- Transactions

const TYPE_OPTIONS = TRANSACTION_TYPES.words.map((word) => [word, inWords(word)] as const);
const STATUS_OPTIONS = TRANSACTION_STATUSES.words.map((word) => [word, inWords(word)] as const);

function TransactionFilters({ values }: { values: FilterValues<TransactionFilterName> }) {
  return (
    <form method="get" action="/money/transactions" className="filters" aria-label="Filter transactions">
      <SelectFilter name="type" label="Type" value={values.type} options={TYPE_OPTIONS} />
      <SelectFilter name="status" label="Status" value={values.status} options={STATUS_OPTIONS} />
      <TextFilter name="currency" label="Currency" value={values.currency} hint="e.g. NGN" maxLength={3} />
      <TextFilter name="reference" label="Reference" value={values.reference} hint="Your exact reference" />
      <TextFilter
        name="from"
        label="Created from"
        value={values.from}
        hint="On or after: a date (2026-11-21, UTC) or a date-time with its zone"
      />
      <TextFilter
        name="to"
        label="Created before"
        value={values.to}
        hint="Before: a date (2026-11-22, UTC) or a date-time with its zone"
      />
      <TextFilter name="per_page" label="Per page" value={values.per_page} hint="1 to 100; 50 unless set" />
      <button type="submit">Filter</button> <a href="/money/transactions">Clear filters</a>
    </form>
  );
}

export interface TransactionsView {
  transactions: readonly Transaction[];
  exponents: Exponents;
  values: FilterValues<TransactionFilterName>;
  problems: readonly string[];
  next?: string;
  previous?: string;
}

export function TransactionsPage(props: TransactionsView) {
  const [section] = transactionsTitle(props.values.type);
  return (
    <>
      <MoneyNavigation current={section} />
      <FilterProblems problems={props.problems} />
      <TransactionFilters values={props.values} />
      <p className="hint">Amounts are as your wallet sees them: money leaving it is negative.</p>
      {props.transactions.length === 0 ? (
        <p>{props.problems.length > 0 ? 'Correct the filters to see transactions.' : 'No transactions match.'}</p>
      ) : (
        <table>
          <caption className="visually-hidden">Transactions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Transaction</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Fee</th>
              <th scope="col">Reference</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {props.transactions.map((transaction) => (
              <tr key={transaction.id}>
                <th scope="row">
                  <a href={transactionHref(transaction.id)}>{transaction.description || transaction.id}</a>
                </th>
                <td>{transactionTypeText(transaction.type)}</td>
                <td>{transactionStatusText(transaction.status)}</td>
                <td>
                  <Money minor={transaction.amount} currency={transaction.currency} exponents={props.exponents} />
                </td>
                <td>
                  <Money minor={transaction.fee} currency={transaction.currency} exponents={props.exponents} />
                </td>
                <td>{transaction.reference ?? ''}</td>
                <td>
                  <When at={transaction.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageLinks path="/money/transactions" values={props.values} next={props.next} previous={props.previous} />
    </>
  );
}

// ---- One transaction

/** What the refund form holds: a key made when it was first rendered, kept when it is shown again. */
export interface RefundFormView {
  idempotencyKey: string;
  amount: string;
  reason: string;
  error?: string;
  amountError?: string;
}

export interface TransactionView {
  transaction: Transaction;
  /** A collection's refund (GetTransaction's), when it has one. */
  refund?: Refund;
  exponents: Exponents;
  /** The API's origin: a money request's payment link is the gateway's /pay/{token}. */
  apiBaseUrl: string;
  /** Set only when the collection is refundable and the member may move money. */
  refundForm?: RefundFormView;
  notice?: string;
  /** A refusal shown at the top when the form is not shown again (the collection is no longer refundable). */
  error?: string;
}

/** A collection payments would consider refunding: successful and never refunded (payments checks the rest). */
export function isRefundable(transaction: Transaction, refund: Refund | undefined): boolean {
  return (
    transaction.type === TransactionType.COLLECTION &&
    transaction.status === TransactionStatus.SUCCESSFUL &&
    transaction.refundStatus === undefined &&
    refund === undefined
  );
}

function SwapSection({ transaction, exponents }: { transaction: Transaction; exponents: Exponents }) {
  const swap = transaction.swapDetails;
  if (!swap) return null;
  return (
    <section aria-labelledby="swap-heading">
      <h2 id="swap-heading">Swap</h2>
      <Facts
        label="Swap"
        rows={[
          ['From', <Money minor={swap.fromAmount} currency={swap.fromCurrency} exponents={exponents} />],
          ['To', <Money minor={swap.toAmount} currency={swap.toCurrency} exponents={exponents} />],
          ['Rate', `1 ${swap.fromCurrency} = ${swap.rate} ${swap.toCurrency}`],
          ['Fee', <Money minor={swap.fee} currency={swap.fromCurrency} exponents={exponents} />],
          ['Amount named', `${amountSideText(swap.amountSide)} side`],
          ['Quote', swap.quoteId ? <code>{swap.quoteId}</code> : undefined],
        ]}
      />
    </section>
  );
}

function PayoutSection({ transaction, exponents }: { transaction: Transaction; exponents: Exponents }) {
  const payout = transaction.payoutDetails;
  if (!payout) return null;
  const destination = payout.destination;
  return (
    <section aria-labelledby="payout-heading">
      <h2 id="payout-heading">Payout</h2>
      <Facts
        label="Payout"
        rows={[
          ['Sent', <Money minor={-transaction.amount} currency={transaction.currency} exponents={exponents} />],
          ['Rail status', payoutStatusText(payout.status)],
          ['Beneficiary', destination?.accountName || undefined],
          ['Account number', destination ? <code>{destination.accountNumber}</code> : undefined],
          ['Bank', destination ? `${destination.bankName} (${destination.bankCode})` : undefined],
          ['Saved beneficiary', payout.beneficiaryId ? <code>{payout.beneficiaryId}</code> : undefined],
          ['Narration', payout.narration || undefined],
          ['Rail reference', payout.railReference ? <code>{payout.railReference}</code> : 'Not submitted yet'],
          ['Failure', payout.failureCode === undefined ? undefined : payoutFailureText(payout.failureCode)],
          ['Completed', payout.completedAt ? <When at={payout.completedAt} /> : undefined],
          ['Reversed', payout.reversedAt ? <When at={payout.reversedAt} /> : undefined],
        ]}
      />
    </section>
  );
}

function RefundFacts({ refund, exponents, label }: { refund: Refund; exponents: Exponents; label: string }) {
  return (
    <Facts
      label={label}
      rows={[
        ['Refund', <a href={transactionHref(refund.id)}>{refund.id}</a>],
        ['Refund of', <a href={transactionHref(refund.transactionId)}>{refund.transactionId}</a>],
        ['Status', refundStatusText(refund.status)],
        ['Amount', <Money minor={refund.amount} currency={refund.currency} exponents={exponents} />],
        ['Reason', refund.reason],
        ['Reference', refund.reference],
        ['Why it failed', refund.failureReason],
        ['Started', <When at={refund.createdAt} />],
        ['Completed', refund.completedAt ? <When at={refund.completedAt} /> : undefined],
      ]}
    />
  );
}

function CollectionSection(props: TransactionView) {
  const { transaction, exponents, refund } = props;
  const collection = transaction.collectionDetails;
  if (!collection) return null;
  const crypto = collection.crypto;
  return (
    <>
      <section aria-labelledby="collection-heading">
        <h2 id="collection-heading">Collection</h2>
        <Facts
          label="Collection"
          rows={[
            ['Method', collectionMethodText(collection.method)],
            ['Customer', <a href={customerHref(collection.customerId)}>{collection.customerId}</a>],
            ['Payer', collection.senderName],
            ['Payer email', collection.payerEmail],
            [
              'Virtual account',
              collection.virtualAccountId ? (
                <a href={virtualAccountHref(collection.virtualAccountId)}>{collection.virtualAccountId}</a>
              ) : undefined,
            ],
            ['Payment request', collection.description],
            [
              'Payment link',
              collection.paymentToken ? (
                <code>{`${props.apiBaseUrl}/pay/${encodeURIComponent(collection.paymentToken)}`}</code>
              ) : undefined,
            ],
            ['Payer returns to', collection.redirectUrl],
            ['Expires', collection.expiresAt ? <When at={collection.expiresAt} /> : undefined],
            ['Completed', collection.completedAt ? <When at={collection.completedAt} /> : undefined],
            [
              'Failure',
              collection.failureCode === undefined ? undefined : collectionFailureText(collection.failureCode),
            ],
            ['Rail reference', collection.railReference ? <code>{collection.railReference}</code> : undefined],
          ]}
        />
        {crypto ? (
          <Facts
            label="Crypto deposit"
            rows={[
              ['Asset', `${crypto.asset} on ${crypto.network}`],
              ['Address', <code>{crypto.address}</code>],
              ['Arrived', `${crypto.assetAmount} base units`],
              ['Chain transaction', <code>{crypto.txHash}</code>],
              ['Confirmations', `${crypto.confirmations} of ${crypto.confirmationsRequired}`],
            ]}
          />
        ) : null}
      </section>
      {refund ? (
        <section aria-labelledby="refund-heading">
          <h2 id="refund-heading">Its refund</h2>
          <RefundFacts refund={refund} exponents={exponents} label="Its refund" />
        </section>
      ) : null}
    </>
  );
}

function RefundForm({
  transaction,
  form,
  exponents,
}: {
  transaction: Transaction;
  form: RefundFormView;
  exponents: Exponents;
}) {
  return (
    <section aria-labelledby="start-refund-heading">
      <h2 id="start-refund-heading">Refund this collection</h2>
      <ErrorSummary message={form.error ?? form.amountError} />
      <p>
        A refund returns the collection’s full amount to the payer, once. Payments refunds successful EUR and GBP
        collections within 7 days of the collection; the amount and the refund fee are reserved in your wallet until the
        bank answers.
      </p>
      <PostForm action={`${transactionHref(transaction.id)}/refund`}>
        {/* Made when this form was rendered: submitting it twice reaches payments with one key, so one refund. */}
        <input type="hidden" name={IDEMPOTENCY_FIELD} value={form.idempotencyKey} />
        <Field
          label={`Amount (${transaction.currency})`}
          name="amount"
          defaultValue={form.amount}
          required
          hint={
            exponents.has(transaction.currency)
              ? `The collection’s full amount, ${moneyText(transaction.amount, transaction.currency, exponents)}.`
              : `The collection’s full amount in minor units, ${transaction.amount.toString()}.`
          }
          error={form.amountError}
        />
        <Field
          label="Reason (optional)"
          name="reason"
          defaultValue={form.reason}
          maxLength={255}
          hint="Kept with the refund, up to 255 characters."
        />
        <button type="submit" className="danger">
          Refund the collection
        </button>
      </PostForm>
    </section>
  );
}

export function TransactionPage(props: TransactionView) {
  const { transaction, exponents } = props;
  const [section] = transactionsTitle(typeWordOf(transaction.type));
  return (
    <>
      <MoneyNavigation current={section} />
      <Notice message={props.notice} />
      <ErrorSummary message={props.refundForm ? undefined : props.error} />
      <Facts
        label="Transaction"
        rows={[
          ['Id', <code>{transaction.id}</code>],
          ['Type', transactionTypeText(transaction.type)],
          ['Status', transactionStatusText(transaction.status)],
          ['Amount', <Money minor={transaction.amount} currency={transaction.currency} exponents={exponents} />],
          ['Fee', <Money minor={transaction.fee} currency={transaction.currency} exponents={exponents} />],
          ['Net', <Money minor={transaction.net} currency={transaction.currency} exponents={exponents} />],
          ['Reference', transaction.reference],
          ['Description', transaction.description || undefined],
          [
            'Refund status',
            transaction.refundStatus === undefined ? undefined : refundStatusText(transaction.refundStatus),
          ],
          ['Created', <When at={transaction.createdAt} />],
          ['Updated', <When at={transaction.updatedAt} />],
        ]}
      />
      <p className="hint">
        Amount and net are as your wallet sees them: negative when money leaves it; net is amount less fee.
      </p>
      <SwapSection transaction={transaction} exponents={exponents} />
      <PayoutSection transaction={transaction} exponents={exponents} />
      <CollectionSection {...props} />
      {transaction.refundDetails ? (
        <section aria-labelledby="refund-heading">
          <h2 id="refund-heading">Refund</h2>
          <RefundFacts refund={transaction.refundDetails} exponents={exponents} label="Refund" />
        </section>
      ) : null}
      {transaction.adjustmentDetails ? (
        <section aria-labelledby="adjustment-heading">
          <h2 id="adjustment-heading">Adjustment</h2>
          <Facts
            label="Adjustment"
            rows={[
              ['Direction', adjustmentDirectionText(transaction.adjustmentDetails.direction)],
              ['Reason', transaction.adjustmentDetails.reason],
              ['By', transaction.adjustmentDetails.actor],
            ]}
          />
        </section>
      ) : null}
      {props.refundForm ? <RefundForm transaction={transaction} form={props.refundForm} exponents={exponents} /> : null}
      <p>
        <a href="/money/transactions">All transactions</a>
      </p>
    </>
  );
}

// ---- Virtual accounts

const VA_STATUS_OPTIONS = VIRTUAL_ACCOUNT_STATUSES.words.map((word) => [word, inWords(word)] as const);

export interface VirtualAccountsView {
  accounts: readonly VirtualAccount[];
  values: FilterValues<VirtualAccountFilterName>;
  problems: readonly string[];
  next?: string;
  previous?: string;
}

export function VirtualAccountsPage(props: VirtualAccountsView) {
  return (
    <>
      <MoneyNavigation current="virtual-accounts" />
      <FilterProblems problems={props.problems} />
      <form method="get" action="/money/virtual-accounts" className="filters" aria-label="Filter virtual accounts">
        <TextFilter name="customer_id" label="Customer id" value={props.values.customer_id} />
        <TextFilter name="currency" label="Currency" value={props.values.currency} hint="e.g. NGN" maxLength={3} />
        <SelectFilter name="status" label="Status" value={props.values.status} options={VA_STATUS_OPTIONS} />
        <TextFilter name="per_page" label="Per page" value={props.values.per_page} hint="1 to 100; 50 unless set" />
        <button type="submit">Filter</button> <a href="/money/virtual-accounts">Clear filters</a>
      </form>
      {props.accounts.length === 0 ? (
        <p>
          {props.problems.length > 0 ? 'Correct the filters to see virtual accounts.' : 'No virtual accounts match.'}
        </p>
      ) : (
        <table>
          <caption className="visually-hidden">Virtual accounts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Account number</th>
              <th scope="col">Account name</th>
              <th scope="col">Bank</th>
              <th scope="col">Currency</th>
              <th scope="col">Status</th>
              <th scope="col">Customer</th>
              <th scope="col">Opened</th>
            </tr>
          </thead>
          <tbody>
            {props.accounts.map((account) => (
              <tr key={account.id}>
                <th scope="row">
                  <a href={virtualAccountHref(account.id)}>{account.accountNumber}</a>
                </th>
                <td>{account.accountName}</td>
                <td>{`${account.bankName} (${account.bankCode})`}</td>
                <td>{account.currency}</td>
                <td>{virtualAccountStatusText(account.status)}</td>
                <td>
                  <a href={customerHref(account.customerId)}>{account.customerId}</a>
                </td>
                <td>
                  <When at={account.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageLinks path="/money/virtual-accounts" values={props.values} next={props.next} previous={props.previous} />
    </>
  );
}

export function VirtualAccountPage({ account }: { account: VirtualAccount }) {
  return (
    <>
      <MoneyNavigation current="virtual-accounts" />
      <Facts
        label="Virtual account"
        rows={[
          ['Id', <code>{account.id}</code>],
          ['Account number', <code>{account.accountNumber}</code>],
          ['Account name', account.accountName],
          ['Bank', `${account.bankName} (${account.bankCode})`],
          ['Currency', account.currency],
          ['Status', virtualAccountStatusText(account.status)],
          ['Customer', <a href={customerHref(account.customerId)}>{account.customerId}</a>],
          ['Opened', <When at={account.createdAt} />],
          ['Closed', account.closedAt ? <When at={account.closedAt} /> : undefined],
          ['Why closed', account.closeReason === undefined ? undefined : closeReasonText(account.closeReason)],
        ]}
      />
      <p>
        <a href={`/money/transactions?type=COLLECTION&currency=${encodeURIComponent(account.currency)}`}>
          {`${account.currency} collections`}
        </a>{' '}
        · <a href="/money/virtual-accounts">All virtual accounts</a>
      </p>
      {account.status === VirtualAccountStatus.ACTIVE ? (
        <SandboxLink field="virtual_account_id" id={account.id} text="Send money into it with the sandbox tools" />
      ) : null}
    </>
  );
}
