import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { DomainError, notFound, Status } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { Router, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { queryText, textField } from '../http/form.js';
import { sendPage } from '../layout/render.js';
import { memberCall, memberMay, memberOf, requireMember } from '../members/member-access.js';
import {
  IDEMPOTENCY_FIELD,
  idempotentMemberCall,
  isIdempotencyKey,
  newIdempotencyKey,
} from '../members/idempotent-call.js';
import { recordAudit } from '../members/record-audit.js';
import { currencyExponents, minorUnitsAsInput, moneyText, parseAmount } from './amount.js';
import {
  isRefundable,
  TransactionPage,
  TransactionsPage,
  transactionsTitle,
  VirtualAccountPage,
  VirtualAccountsPage,
  WalletsPage,
  type RefundFormView,
} from './money-pages.js';
import { readTransactionQuery, readVirtualAccountQuery } from './money-query.js';
import { transactionTypeText } from './vocabulary.js';

const NOTICES: Record<string, string> = {
  'refund-started':
    'The refund is started. It is processing: its amount and fee are reserved in your wallet until the bank answers.',
  'refund-existing': 'This refund was already started (the same form was sent again); nothing new happened.',
};

/** CreateRefund's reason: the API's limit (1 to 255 characters). */
const REASON_MAX = 255;

/** What payments' refusals of a refund are, as pages: the form again, naming the problem. */
const REFUSALS: Partial<Record<Status, number>> = {
  [Status.INVALID_ARGUMENT]: 422,
  [Status.FAILED_PRECONDITION]: 409,
  // The same key still being processed (a double submit racing the first): nothing was done twice.
  [Status.ALREADY_EXISTS]: 409,
};

const present = <T,>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`payments answered no ${what}`);
  return value;
};

/** The page's one h1: the transaction's own description ("Swap 150000.00 NGN to 97.35 USD"). */
const transactionTitle = (transaction: Transaction) =>
  transaction.description || `${transactionTypeText(transaction.type)} ${transaction.id}`;

/**
 * /money: the business's wallets, transactions (payouts, collections and refunds are its type
 * filters), virtual accounts, and refunds of collections, over payments' capability services with the
 * member's caller metadata: payments answers NOT_FOUND for another business's id, which is the 404
 * page. Amounts are formatted from integer minor units with each currency's exponent.
 */
export function moneyRouter(deps: DashboardDependencies): Router {
  const router = Router();
  // deps.clients is read per request (not destructured once) so a spec can put recording clients in its place.

  /** The member's business's transaction, or 404: not a uuid names none, as another business's. */
  async function ownTransaction(req: Request, res: Response) {
    const transactionId = String(req.params.transactionId);
    if (!isUuid(transactionId)) throw notFound('TRANSACTION_NOT_FOUND', 'no such transaction');
    const answer = await deps.clients.transactions.getTransaction({ transactionId }, memberCall(res));
    const transaction = present(answer.transaction, 'transaction');
    // payments already scopes by the caller's business; a mismatch must never be shown.
    if (transaction.businessId !== memberOf(res).businessId) {
      throw notFound('TRANSACTION_NOT_FOUND', 'no such transaction');
    }
    return { transaction, refund: answer.refund };
  }

  router.get('/money', requireMember('read'), async (_req, res) => {
    const [{ wallets }, exponents] = await Promise.all([
      deps.clients.wallets.listWallets({}, memberCall(res)),
      currencyExponents(deps.clients.referenceData, memberCall(res)),
    ]);
    sendPage(res, 200, 'Money', <WalletsPage wallets={wallets} exponents={exponents} />);
  });

  router.get('/money/transactions', requireMember('read'), async (req, res) => {
    const query = readTransactionQuery(req);
    const [, title] = transactionsTitle(query.values.type);
    const refused = (status: number, problems: string[]) =>
      sendPage(
        res,
        status,
        title,
        <TransactionsPage transactions={[]} exponents={new Map()} values={query.values} problems={problems} />,
      );
    if (!query.request) return refused(422, query.problems);
    let answer;
    try {
      answer = await deps.clients.transactions.listTransactions(query.request, memberCall(res));
    } catch (error) {
      // A cursor that is not one of this list's pages: payments names it.
      if (error instanceof DomainError && error.status === Status.INVALID_ARGUMENT)
        return refused(422, [error.message]);
      throw error;
    }
    sendPage(
      res,
      200,
      title,
      <TransactionsPage
        transactions={answer.transactions}
        exponents={await currencyExponents(deps.clients.referenceData, memberCall(res))}
        values={query.values}
        problems={[]}
        next={answer.page?.nextCursor}
        previous={answer.page?.previousCursor}
      />,
    );
  });

  router.get('/money/transactions/:transactionId', requireMember('read'), async (req, res) => {
    const { transaction, refund } = await ownTransaction(req, res);
    const exponents = await currencyExponents(deps.clients.referenceData, memberCall(res));
    // The key is made now, with the form: every submission of this one form is one refund.
    const refundForm: RefundFormView | undefined =
      memberMay(res, 'move_money') && isRefundable(transaction, refund)
        ? {
            idempotencyKey: newIdempotencyKey(),
            amount: minorUnitsAsInput(transaction.amount, exponents.get(transaction.currency) ?? 0),
            reason: '',
          }
        : undefined;
    sendPage(
      res,
      200,
      transactionTitle(transaction),
      <TransactionPage
        transaction={transaction}
        refund={refund}
        exponents={exponents}
        apiBaseUrl={deps.apiBaseUrl}
        refundForm={refundForm}
        notice={NOTICES[queryText(req, 'notice')]}
      />,
    );
  });

  router.post('/money/transactions/:transactionId/refund', requireMember('move_money'), async (req, res) => {
    // Not checked for refundability here: a second submission of the same form must reach payments,
    // which answers the refund its key already made rather than refusing it as already refunded.
    const { transaction, refund } = await ownTransaction(req, res);
    const exponents = await currencyExponents(deps.clients.referenceData, memberCall(res));
    const sentKey = textField(req, IDEMPOTENCY_FIELD);
    const form: RefundFormView = {
      idempotencyKey: isIdempotencyKey(sentKey) ? sentKey : newIdempotencyKey(),
      amount: textField(req, 'amount'),
      reason: textField(req, 'reason').trim(),
    };
    const again = (status: number, problem: { error?: string; amountError?: string }) =>
      sendPage(
        res,
        status,
        transactionTitle(transaction),
        <TransactionPage
          transaction={transaction}
          refund={refund}
          exponents={exponents}
          apiBaseUrl={deps.apiBaseUrl}
          refundForm={isRefundable(transaction, refund) ? { ...form, ...problem } : undefined}
          error={problem.error ?? problem.amountError}
        />,
      );
    if (!isIdempotencyKey(sentKey)) {
      return again(400, { error: 'The form had no idempotency key, so it was not sent; check it and send it again.' });
    }
    // A currency payments did not list is typed in minor units (the form's hint says so).
    const amount = parseAmount(form.amount, exponents.get(transaction.currency) ?? 0, transaction.currency);
    if (!amount.ok) return again(422, { error: amount.problem, amountError: amount.problem });
    if (form.reason.length > REASON_MAX) {
      return again(422, {
        error: `The reason is at most ${REASON_MAX} characters; this one has ${form.reason.length}.`,
      });
    }
    const reason = form.reason === '' ? undefined : form.reason;
    const path = `/money/transactions/${transaction.id}/refund`;
    const call = idempotentMemberCall(res, form.idempotencyKey, path, {
      transaction_id: transaction.id,
      amount: amount.minor.toString(),
      reason,
    });
    let created;
    try {
      created = await deps.clients.refunds.createRefund(
        { transactionId: transaction.id, amount: amount.minor, reason },
        call.settings,
      );
    } catch (error) {
      const status = error instanceof DomainError ? REFUSALS[error.status] : undefined;
      if (!status || !(error instanceof DomainError)) throw error;
      return again(
        status,
        error.reason === 'PARTIAL_REFUND_NOT_SUPPORTED' ? { amountError: error.message } : { error: error.message },
      );
    }
    const made = present(created.refund, 'refund');
    const repeated = created.existing || call.replayed();
    // A repeat changed nothing; the first submission recorded the refund.
    if (!repeated) {
      await recordAudit(deps, req, res, {
        action: 'refund.created',
        target: made.id,
        details: `Refund of collection ${transaction.id} for ${moneyText(made.amount, made.currency, exponents)}${
          reason ? `: ${reason}` : ''
        }`,
      });
    }
    res.redirect(
      303,
      `/money/transactions/${encodeURIComponent(made.id)}?notice=${repeated ? 'refund-existing' : 'refund-started'}`,
    );
  });

  router.get('/money/virtual-accounts', requireMember('read'), async (req, res) => {
    const query = readVirtualAccountQuery(req);
    const refused = (status: number, problems: string[]) =>
      sendPage(
        res,
        status,
        'Virtual accounts',
        <VirtualAccountsPage accounts={[]} values={query.values} problems={problems} />,
      );
    if (!query.request) return refused(422, query.problems);
    let answer;
    try {
      answer = await deps.clients.collections.listVirtualAccounts(query.request, memberCall(res));
    } catch (error) {
      if (error instanceof DomainError && error.status === Status.INVALID_ARGUMENT)
        return refused(422, [error.message]);
      throw error;
    }
    sendPage(
      res,
      200,
      'Virtual accounts',
      <VirtualAccountsPage
        accounts={answer.virtualAccounts}
        values={query.values}
        problems={[]}
        next={answer.page?.nextCursor}
        previous={answer.page?.previousCursor}
      />,
    );
  });

  router.get('/money/virtual-accounts/:virtualAccountId', requireMember('read'), async (req, res) => {
    const virtualAccountId = String(req.params.virtualAccountId);
    if (!isUuid(virtualAccountId)) throw notFound('VIRTUAL_ACCOUNT_NOT_FOUND', 'no such virtual account');
    const answer = await deps.clients.collections.getVirtualAccount({ virtualAccountId }, memberCall(res));
    const account = present(answer.virtualAccount, 'virtual account');
    sendPage(res, 200, `Virtual account ${account.accountNumber}`, <VirtualAccountPage account={account} />);
  });

  return router;
}
