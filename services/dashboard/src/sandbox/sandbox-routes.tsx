import { VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { KycRejectionType, KycResult, KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { SandboxCollectionOutcome } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { TransactionStatus, type Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { DomainError, Status } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { Router, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { notFoundPage } from '../http/error-pages.js';
import { textField, queryText } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { sendPage } from '../layout/render.js';
import { memberCall, requireMember } from '../members/member-access.js';
import { recordAudit } from '../members/record-audit.js';
import {
  IDEMPOTENCY_FIELD,
  idempotentMemberCall,
  isIdempotencyKey,
  newIdempotencyKey,
} from '../members/idempotent-call.js';
import { amountSyntaxProblem, currencyExponents, moneyText, parseAmount, type Exponents } from '../money/amount.js';
import {
  FIELDS,
  FORMS,
  SandboxPage,
  SimulationResult,
  type FieldName,
  type FormName,
  type FormValues,
  type Problem,
} from './sandbox-pages.js';

const TITLE = 'Sandbox tools';

/** The API's bound on a simulated amount: a JSON number stays exact below 2^53. */
export const API_AMOUNT_MAX = 2n ** 53n - 1n;
/** What other pages may prefill with a "simulate…" link: /sandbox?customer_id=… */
const PREFILLED: readonly FieldName[] = ['virtual_account_id', 'collection_id', 'customer_id', 'session_id'];
const PREFILL_MAX = 100;

const OUTCOMES: Record<string, [SandboxCollectionOutcome, string]> = {
  pay: [SandboxCollectionOutcome.PAY, 'paid by the payer'],
  decline: [SandboxCollectionOutcome.DECLINE, 'declined by the payer'],
  expire: [SandboxCollectionOutcome.EXPIRE, 'expired'],
};
const VERDICTS: Record<string, VerificationStatus> = {
  VERIFIED: VerificationStatus.VERIFIED,
  REJECTED: VerificationStatus.REJECTED,
};
const RESULTS: Record<string, KycResult> = { APPROVED: KycResult.APPROVED, REJECTED: KycResult.REJECTED };
const REJECTION_TYPES: Record<string, KycRejectionType> = {
  FINAL: KycRejectionType.FINAL,
  RETRYABLE: KycRejectionType.RETRYABLE,
};

const uuidProblem = (what: string) => `Enter the ${what}: a UUID such as 8d2f7b92-0000-4000-8000-00000000e001`;

/** A simulation that did not run, as the page shows it again: 404 (not this business's) or 422. */
class Refusal {
  constructor(
    readonly status: 404 | 422,
    readonly problem: Problem,
  ) {}
}

const refusal = (form: FormName, fields: Problem['fields'], message?: string) =>
  new Refusal(422, {
    form,
    message: message ?? Object.values(fields)[0] ?? 'The form cannot be read',
    fields,
    others: [],
  });

const isField = (path: string): path is FieldName => (FIELDS as readonly string[]).includes(path);

/**
 * A service's refusal in the form's terms: NOT_FOUND (another business's id too) is a 404 naming the
 * id's field; a validation failure or a state that forbids it (e.g. a customer not under review, a
 * session already final) is a 422 with the service's words. Anything else is the error pages'.
 */
function refusalOfService(form: FormName, error: unknown, idField: FieldName, what: string): Refusal {
  if (!(error instanceof DomainError)) throw error;
  if (error.status === Status.NOT_FOUND) {
    const message = `Your business has no ${what} with this ID.`;
    return new Refusal(404, { form, message, fields: { [idField]: message }, others: [] });
  }
  const refused = [Status.INVALID_ARGUMENT, Status.FAILED_PRECONDITION, Status.ALREADY_EXISTS];
  if (!refused.includes(error.status)) throw error;
  const fields: Problem['fields'] = {};
  const others: string[] = [];
  for (const [path, problems] of Object.entries(error.fieldErrors ?? {})) {
    if (isField(path)) fields[path] = problems.join('; ');
    else others.push(`${path} ${problems.join('; ')}`);
  }
  return new Refusal(422, { form, message: error.message, fields, others });
}

const present = <T,>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`the service answered no ${what}`);
  return value;
};

/**
 * /sandbox (issue 30, "Sandbox tools"): the simulations a sandbox test journey needs, each a POST
 * that calls the owning service as the member's business (memberCall) with the form's idempotency
 * key, records the change in the audit log and answers a page saying what happened. Production has
 * no simulations: every /sandbox address is 404 there, as for a page that does not exist.
 */
export function sandboxRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { referenceData, collections, customer: customers, kycSessions } = deps.clients;

  router.use('/sandbox', (_req, res, next) => {
    if (stateOf(res).environment !== 'sandbox') return notFoundPage(res);
    next();
  });

  const freshKeys = () =>
    Object.fromEntries(FORMS.map((form) => [form, newIdempotencyKey()])) as Record<FormName, string>;

  function showForms(res: Response, status: number, values: FormValues, problem?: Problem) {
    sendPage(res, status, TITLE, <SandboxPage values={values} keys={freshKeys()} problem={problem} />);
  }

  /** Runs one simulation's handler; a Refusal shows the page again with what was sent and why. */
  function simulation(form: FormName, fields: readonly FieldName[], run: (input: SimulationInput) => Promise<void>) {
    return async (req: Request, res: Response) => {
      const values: FormValues = Object.fromEntries(fields.map((field) => [field, textField(req, field)]));
      try {
        const key = textField(req, IDEMPOTENCY_FIELD);
        if (!isIdempotencyKey(key)) {
          throw refusal(
            form,
            {},
            'The form is incomplete (its idempotency key is missing): reload the page and send it again.',
          );
        }
        await run({ req, res, values, key, path: req.path });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        showForms(res, error.status, values, error.problem);
      }
    };
  }

  const transactionDetails = (transaction: Transaction, exponents: Exponents): [string, string][] => [
    ['Transaction', transaction.id],
    ['Status', TransactionStatus[transaction.status]],
    ['Amount', moneyText(transaction.amount, transaction.currency, exponents)],
    ['Fee', moneyText(transaction.fee, transaction.currency, exponents)],
  ];

  router.get('/sandbox', requireMember('sandbox_tools'), (req, res) => {
    const values: FormValues = {};
    for (const field of PREFILLED) {
      const given = queryText(req, field).trim();
      if (given && given.length <= PREFILL_MAX) values[field] = given;
    }
    showForms(res, 200, values);
  });

  router.post(
    '/sandbox/incoming-transfer',
    requireMember('sandbox_tools'),
    simulation('incoming-transfer', ['virtual_account_id', 'amount', 'sender_name'], async (input) => {
      const { req, res, values } = input;
      const form = 'incoming-transfer';
      const virtualAccountId = (values.virtual_account_id ?? '').trim();
      const senderName = (values.sender_name ?? '').trim();
      const amountText = values.amount ?? '';
      const problems: Problem['fields'] = {};
      if (!isUuid(virtualAccountId)) problems.virtual_account_id = uuidProblem('virtual account ID');
      const syntax = amountSyntaxProblem(amountText);
      if (syntax) problems.amount = syntax;
      if (senderName === '' || senderName.length > 100)
        problems.sender_name = 'Enter the sender’s name, 1 to 100 characters';
      if (Object.keys(problems).length > 0) throw refusal(form, problems);

      // The amount is typed in the account's currency: its exponent says where the minor units start.
      let account;
      try {
        account = present(
          (await collections.getVirtualAccount({ virtualAccountId }, memberCall(res))).virtualAccount,
          'virtual account',
        );
      } catch (error) {
        throw refusalOfService(form, error, 'virtual_account_id', 'virtual account');
      }
      const exponents = await currencyExponents(referenceData, memberCall(res));
      const exponent = exponents.get(account.currency);
      if (exponent === undefined) throw new Error(`payments lists no currency ${account.currency}`);
      const parsed = parseAmount(amountText, exponent, account.currency, API_AMOUNT_MAX);
      if (!parsed.ok) throw refusal(form, { amount: parsed.problem });

      const request = { virtualAccountId, amount: parsed.minor, senderName };
      const call = idempotentMemberCall(res, input.key, input.path, request);
      let transaction;
      try {
        transaction = present(
          (await collections.sandboxIncomingTransfer(request, call.settings)).transaction,
          'transaction',
        );
      } catch (error) {
        throw refusalOfService(form, error, 'virtual_account_id', 'virtual account');
      }
      const amount = moneyText(parsed.minor, account.currency, exponents);
      const summary = `A transfer of ${amount} from ${senderName} arrived in virtual account ${account.accountNumber} (${account.accountName}); its collection is ${TransactionStatus[transaction.status]}.`;
      if (!call.replayed()) {
        await recordAudit(deps, req, res, {
          action: 'sandbox.incoming_transfer',
          target: transaction.id,
          details: `Sandbox: simulated a transfer of ${amount} from ${senderName} into virtual account ${virtualAccountId}`,
        });
      }
      sendPage(
        res,
        201,
        'Incoming transfer simulated',
        <SimulationResult
          summary={summary}
          details={transactionDetails(transaction, exponents)}
          link={{ href: `/money/transactions/${transaction.id}`, text: 'See the transaction' }}
          replayed={call.replayed()}
        />,
      );
    }),
  );

  router.post(
    '/sandbox/money-request',
    requireMember('sandbox_tools'),
    simulation('money-request', ['collection_id', 'outcome'], async (input) => {
      const { req, res, values } = input;
      const form = 'money-request';
      const collectionId = (values.collection_id ?? '').trim();
      const chosen = OUTCOMES[values.outcome ?? ''];
      const problems: Problem['fields'] = {};
      if (!isUuid(collectionId)) problems.collection_id = uuidProblem('money request’s collection ID');
      if (!chosen) problems.outcome = 'Choose an outcome: pay, decline or expire';
      if (!chosen || Object.keys(problems).length > 0) throw refusal(form, problems);
      const [outcome, outcomeText] = chosen;

      const exponents = await currencyExponents(referenceData, memberCall(res));
      const request = { collectionId, outcome };
      const call = idempotentMemberCall(res, input.key, input.path, request);
      let transaction;
      try {
        transaction = present(
          (await collections.sandboxSettleCollection(request, call.settings)).transaction,
          'transaction',
        );
      } catch (error) {
        throw refusalOfService(form, error, 'collection_id', 'money request');
      }
      const status = TransactionStatus[transaction.status];
      if (!call.replayed()) {
        await recordAudit(deps, req, res, {
          action: 'sandbox.money_request_settled',
          target: transaction.id,
          details: `Sandbox: money request ${outcomeText} (now ${status})`,
        });
      }
      sendPage(
        res,
        200,
        'Money request answered',
        <SimulationResult
          summary={`The money request was ${outcomeText}: it is now ${status}.`}
          details={transactionDetails(transaction, exponents)}
          link={{ href: `/money/transactions/${transaction.id}`, text: 'See the transaction' }}
          replayed={call.replayed()}
        />,
      );
    }),
  );

  router.post(
    '/sandbox/customer-review',
    requireMember('sandbox_tools'),
    simulation('customer-review', ['customer_id', 'verdict', 'comment'], async (input) => {
      const { req, res, values } = input;
      const form = 'customer-review';
      const customerId = (values.customer_id ?? '').trim();
      const verdict = VERDICTS[values.verdict ?? ''];
      const comment = (values.comment ?? '').trim();
      const problems: Problem['fields'] = {};
      if (!isUuid(customerId)) problems.customer_id = uuidProblem('customer ID');
      if (verdict === undefined) problems.verdict = 'Choose a verdict: VERIFIED or REJECTED';
      if (comment.length > 2000) problems.comment = 'The comment must be at most 2000 characters';
      if (verdict === undefined || Object.keys(problems).length > 0) throw refusal(form, problems);

      const request = { customerId, verdict, ...(comment ? { comment } : {}) };
      const call = idempotentMemberCall(res, input.key, input.path, request);
      let customer;
      try {
        customer = present((await customers.sandboxReviewCustomer(request, call.settings)).customer, 'customer');
      } catch (error) {
        throw refusalOfService(form, error, 'customer_id', 'customer');
      }
      const status = VerificationStatus[customer.verificationStatus];
      if (!call.replayed()) {
        await recordAudit(deps, req, res, {
          action: 'sandbox.customer_reviewed',
          target: customer.id,
          details: `Sandbox: customer reviewed, now ${status}`,
        });
      }
      sendPage(
        res,
        200,
        'Customer reviewed',
        <SimulationResult
          summary={`Customer ${customer.id} is now ${status}; the customer webhook follows.`}
          details={[
            ['Customer', customer.id],
            ['Verification status', status],
            ['Owners judged', String(customer.owners.length)],
            ['Documents judged', String(customer.documents.length)],
          ]}
          link={{ href: `/customers/${customer.id}`, text: 'See the customer' }}
          replayed={call.replayed()}
        />,
      );
    }),
  );

  router.post(
    '/sandbox/kyc-verdict',
    requireMember('sandbox_tools'),
    simulation('kyc-verdict', ['session_id', 'result', 'rejection_type', 'rejection_reason'], async (input) => {
      const { req, res, values } = input;
      const form = 'kyc-verdict';
      const sessionId = (values.session_id ?? '').trim();
      const result = RESULTS[values.result ?? ''];
      const problems: Problem['fields'] = {};
      if (!isUuid(sessionId)) problems.session_id = uuidProblem('KYC session ID');
      if (result === undefined) problems.result = 'Choose a result: APPROVED or REJECTED';
      const rejectionType = REJECTION_TYPES[values.rejection_type ?? ''];
      if (result === KycResult.REJECTED && rejectionType === undefined) {
        problems.rejection_type = 'Choose a rejection type: FINAL or RETRYABLE';
      }
      if (result === undefined || Object.keys(problems).length > 0) throw refusal(form, problems);

      // An approval carries no rejection: the fields left filled in are not sent (the service refuses them).
      const request =
        result === KycResult.REJECTED
          ? { sessionId, result, rejectionType, rejectionReason: values.rejection_reason ?? '' }
          : { sessionId, result };
      const call = idempotentMemberCall(res, input.key, input.path, request);
      let session;
      try {
        session = present((await kycSessions.sandboxRecordKycResult(request, call.settings)).session, 'session');
      } catch (error) {
        throw refusalOfService(form, error, 'session_id', 'KYC session');
      }
      const resultWord = session.result === undefined ? 'no result' : KycResult[session.result];
      if (!call.replayed()) {
        await recordAudit(deps, req, res, {
          action: 'sandbox.kyc_result_recorded',
          target: session.id,
          details: `Sandbox: KYC session given the verdict ${resultWord}`,
        });
      }
      sendPage(
        res,
        200,
        'KYC verdict given',
        <SimulationResult
          summary={`KYC session ${session.id} is ${KycSessionStatus[session.status]}: ${resultWord}; the KYC session webhook follows.`}
          details={[
            ['KYC session', session.id],
            ['Customer reference', session.customerReference],
            ['Status', KycSessionStatus[session.status]],
            ['Result', resultWord],
            ...(session.rejectionType === undefined
              ? []
              : [['Rejection type', KycRejectionType[session.rejectionType]] as [string, string]]),
            ...(session.rejectionReason === undefined
              ? []
              : [['Rejection reason', session.rejectionReason] as [string, string]]),
          ]}
          link={{ href: `/kyc-sessions/${session.id}`, text: 'See the KYC session' }}
          replayed={call.replayed()}
        />,
      );
    }),
  );

  return router;
}

interface SimulationInput {
  req: Request;
  res: Response;
  values: FormValues;
  key: string;
  path: string;
}
