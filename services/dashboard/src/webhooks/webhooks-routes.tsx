import type { JsonObject } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AttemptOutcome,
  type WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { DomainError, notFound, Status } from '@corridor/grpc';
import { isJsonObject, isUuid } from '@corridor/validation';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { notFoundPage } from '../http/error-pages.js';
import { queryText, textField } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { ErrorSummary } from '../layout/components.js';
import { sendPage } from '../layout/render.js';
import { memberCall, memberMay, requireMember } from '../members/member-access.js';
import { recordAudit } from '../members/record-audit.js';
import {
  firstProblem,
  readDeliveryFilters,
  readTime,
  type DeliveryFilters,
  type Problems,
} from './delivery-filters.js';
import {
  DeliveriesPage,
  DeliveryPage,
  MockEventForm,
  ReplayFailedForm,
  ReplayQueued,
  type MockValues,
  type ReplayWindow,
} from './deliveries-pages.js';
import { DESTINATIONS, EVENT_WORDS, WEBHOOK_EVENTS } from '@corridor/grpc/notification-words';
import { isWord } from './vocabulary.js';
import {
  OVERLAP_HOURS,
  SigningSecretShownOnce,
  urlsOf,
  WebhookPage,
  type WebhookUrls,
  type WebhookView,
} from './webhooks-pages.js';

/**
 * A replay or a mock waits for the platform's receiver (up to 30 s, seed 6.4 rule 6) before
 * notification answers: the default deadline would show a failure while the attempt is recorded.
 */
const ATTEMPT_CALL_TIMEOUT_MS = 45_000;

const WEBHOOK_NOTICES: Record<string, string> = {
  retired: 'The previous signing secret no longer signs: only the current one does.',
  updated: 'The webhook URLs are changed; the next attempt of every delivery goes to them. The signing secret stays.',
  unchanged: 'Nothing was changed: those are the registered URLs.',
};

const DELIVERY_NOTICES: Record<string, string> = {
  'replay-succeeded': 'Replayed: your receiver answered with a 2xx; the attempt is the last below.',
  'replay-failed': 'Replayed, but the attempt failed; the last attempt below says why.',
};

/** The mock's notice names the event, read back only as one of the known event words. */
function mockNotice(req: Request): string | undefined {
  const outcome = queryText(req, 'notice');
  const event = queryText(req, 'event');
  if (!isWord(EVENT_WORDS.words, event)) return undefined;
  if (outcome === 'mock-succeeded') return `A mock ${event} event was sent and your receiver answered with a 2xx.`;
  if (outcome === 'mock-failed') return `A mock ${event} event was sent, but the attempt failed; open it below.`;
  return undefined;
}

const LABELS: Record<string, string> = {
  collection_url: 'Collection URL',
  payout_url: 'Payout URL',
  kyc_url: 'KYC URL',
  since: 'Failed deliveries created from',
  until: 'Created before',
  event: 'Event',
  status: 'Status',
  from: 'Created from',
  to: 'Created before',
  cursor: 'Page',
  data: 'Fields to replace',
};

/**
 * notification's INVALID_ARGUMENT names every problem by public field name (decision 0026); each
 * becomes that input's error, read with the form's label (data.amount is the data field's).
 */
function problemsOf(error: DomainError): Problems {
  const problems: Problems = {};
  for (const [path, texts] of Object.entries(error.fieldErrors ?? {})) {
    const field = path.startsWith('data.') ? 'data' : path;
    const label = LABELS[field] ?? path;
    const subject = path.startsWith('data.') ? `${label}: ${path.slice('data.'.length)}` : label;
    problems[field] = `${subject} ${texts.join('; ')}`;
  }
  return problems;
}

const isStatus = (error: unknown, status: Status): error is DomainError =>
  error instanceof DomainError && error.status === status;

/** /webhooks/mock-event exists only in the sandbox: in production it is 404, whoever asks. */
function sandboxOnly(_req: Request, res: Response, next: NextFunction): void {
  if (stateOf(res).environment !== 'sandbox') return notFoundPage(res);
  next();
}

/**
 * /webhooks: the business's webhook registration over notification's NotificationService (seed 2.4,
 * 4.3, 6.4; decisions 0009, 0010): register or change the URLs, the delivery log with its attempts,
 * replays and, in the sandbox, mock events. The signing secret is rendered only in the answer to the
 * POST that registered it.
 */
export function webhooksRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { notification } = deps.clients;
  const mayMock = (res: Response) => stateOf(res).environment === 'sandbox' && memberMay(res, 'manage_webhooks');

  /** The registration, or undefined before one exists (notification's NOT_FOUND). */
  async function registrationOf(res: Response): Promise<WebhookConfig | undefined> {
    try {
      return (await notification.getWebhook({}, memberCall(res))).webhook;
    } catch (error) {
      if (isStatus(error, Status.NOT_FOUND)) return undefined;
      throw error;
    }
  }

  function sendWebhookPage(res: Response, status: number, view: Omit<WebhookView, 'mayManage' | 'mayMock'>) {
    sendPage(
      res,
      status,
      'Webhooks',
      <WebhookPage {...view} mayManage={memberMay(res, 'manage_webhooks')} mayMock={mayMock(res)} />,
    );
  }

  router.get('/webhooks', requireMember('read'), async (req, res) => {
    sendWebhookPage(res, 200, {
      webhook: await registrationOf(res),
      notice: WEBHOOK_NOTICES[queryText(req, 'notice')],
    });
  });

  router.post('/webhooks', requireMember('manage_webhooks'), async (req, res) => {
    const values: WebhookUrls = {
      collection_url: textField(req, 'collection_url').trim(),
      payout_url: textField(req, 'payout_url').trim(),
      kyc_url: textField(req, 'kyc_url').trim(),
    };
    const current = await registrationOf(res);
    const again = (status: number, error: string, problems: Problems = {}) =>
      sendWebhookPage(res, status, { webhook: current, values, error, problems });
    // seed 2.4: collection_url and payout_url are never absent; kyc_url may be.
    const missing: Problems = {};
    if (values.collection_url === '') missing.collection_url = 'Enter the collection URL.';
    if (values.payout_url === '') missing.payout_url = 'Enter the payout URL.';
    if (Object.keys(missing).length > 0) return again(422, firstProblem(missing) ?? '', missing);

    if (!current) {
      let registered;
      try {
        registered = await notification.registerWebhook(
          {
            collectionUrl: values.collection_url,
            payoutUrl: values.payout_url,
            ...(values.kyc_url === '' ? {} : { kycUrl: values.kyc_url }),
          },
          memberCall(res),
        );
      } catch (error) {
        if (isStatus(error, Status.INVALID_ARGUMENT)) {
          const problems = problemsOf(error);
          return again(422, firstProblem(problems) ?? error.message, problems);
        }
        if (isStatus(error, Status.ALREADY_EXISTS)) {
          return again(409, 'These URLs were registered meanwhile, perhaps by another member: reload the page.');
        }
        throw error;
      }
      const webhook = registered.webhook;
      if (!webhook?.signingSecret) throw new Error('notification registered a webhook without its signing secret');
      await recordAudit(deps, req, res, {
        action: 'webhook.registered',
        target: webhook.id,
        details: `Webhook URLs registered: ${describeUrls(urlsOf(webhook))}`,
      });
      return sendPage(res, 201, 'Webhook URLs registered', <SigningSecretShownOnce webhook={webhook} />);
    }

    // Only what differs is sent: notification leaves an absent URL as it is (seed 2.1 rule 2).
    const before = urlsOf(current);
    const kycChange =
      values.kyc_url === before.kyc_url
        ? { case: undefined }
        : values.kyc_url === ''
          ? { case: 'removeKycUrl' as const, value: true }
          : { case: 'kycUrl' as const, value: values.kyc_url };
    let updated;
    try {
      updated = await notification.updateWebhook(
        {
          webhookId: current.id,
          ...(values.collection_url === before.collection_url ? {} : { collectionUrl: values.collection_url }),
          ...(values.payout_url === before.payout_url ? {} : { payoutUrl: values.payout_url }),
          kycUrlChange: kycChange,
        },
        memberCall(res),
      );
    } catch (error) {
      if (isStatus(error, Status.INVALID_ARGUMENT)) {
        const problems = problemsOf(error);
        return again(422, firstProblem(problems) ?? error.message, problems);
      }
      throw error;
    }
    // notification writes URLs in the URL standard's form: what changed is read from its answer.
    const after = updated.webhook ? urlsOf(updated.webhook) : values;
    const changed = (Object.keys(after) as (keyof WebhookUrls)[]).filter((field) => after[field] !== before[field]);
    if (changed.length === 0) return res.redirect(303, '/webhooks?notice=unchanged');
    // UpdateWebhook answers the same secret as registration did (it never rotates it): not shown again here.
    await recordAudit(deps, req, res, {
      action: 'webhook.updated',
      target: current.id,
      details: `Webhook URLs changed: ${changed.map((field) => `${field} ${after[field] || 'removed'}`).join(', ')}`,
    });
    res.redirect(303, '/webhooks?notice=updated');
  });

  // Decision 0065: a new secret, shown once; the previous one signs beside it for the overlap chosen.
  router.post('/webhooks/signing-secret/rotate', requireMember('manage_webhooks'), async (req, res) => {
    const current = await registrationOf(res);
    if (!current) return res.redirect(303, '/webhooks');
    const hours = textField(req, 'overlap_hours');
    if (!Object.hasOwn(OVERLAP_HOURS, hours)) {
      const problem = 'Choose how long the previous secret keeps signing.';
      return sendWebhookPage(res, 422, { webhook: current, error: problem });
    }
    const { webhook } = await notification.rotateWebhookSecret(
      { webhookId: current.id, overlapSeconds: Number(hours) * 3600 },
      memberCall(res),
    );
    if (!webhook?.signingSecret) throw new Error('notification rotated a signing secret without answering it');
    const until = webhook.previousSigningSecretExpiresAt;
    await recordAudit(deps, req, res, {
      action: 'webhook.secret_rotated',
      target: current.id,
      details: `Signing secret rotated: …${webhook.signingSecretLast4} signs now; ${
        until
          ? `the previous …${webhook.previousSigningSecretLast4} signs beside it for ${hours} h`
          : 'the previous one stopped at once'
      }`,
    });
    return sendPage(res, 200, 'Signing secret rotated', <SigningSecretShownOnce webhook={webhook} />);
  });

  router.post('/webhooks/signing-secret/retire', requireMember('manage_webhooks'), async (req, res) => {
    const current = await registrationOf(res);
    if (!current) return res.redirect(303, '/webhooks');
    await notification.endWebhookSecretOverlap({ webhookId: current.id }, memberCall(res));
    await recordAudit(deps, req, res, {
      action: 'webhook.secret_overlap_ended',
      target: current.id,
      details: `Previous signing secret retired: only …${current.signingSecretLast4} signs`,
    });
    res.redirect(303, '/webhooks?notice=retired');
  });

  // Decision 0068: a disabled URL enabled again, by default with the deliveries it held queued in order.
  router.post('/webhooks/endpoint/enable', requireMember('manage_webhooks'), async (req, res) => {
    const current = await registrationOf(res);
    if (!current) return res.redirect(303, '/webhooks');
    const kind = textField(req, 'kind');
    const replay = textField(req, 'replay');
    if (!isWord(DESTINATIONS.words, kind) || !['yes', 'no'].includes(replay)) {
      return sendWebhookPage(res, 422, {
        webhook: current,
        error: 'Choose the URL to enable and what to do with its backlog.',
      });
    }
    const { webhook, queued } = await notification.enableWebhookUrl(
      { webhookId: current.id, urlKind: DESTINATIONS.toProto(kind), replay: replay === 'yes' },
      memberCall(res),
    );
    await recordAudit(deps, req, res, {
      action: 'webhook.url_enabled',
      target: current.id,
      details: `${kind} enabled: ${replay === 'yes' ? `${queued} held deliveries queued` : 'held deliveries ended, not replayed'}`,
    });
    sendWebhookPage(res, 200, {
      webhook: webhook ?? current,
      notice:
        replay === 'yes'
          ? `The ${LABELS[kind] ?? kind} is enabled; ${queued} deliveries it held are queued and go out in order now.`
          : `The ${LABELS[kind] ?? kind} is enabled; the deliveries it held are marked failed and can be replayed from the delivery log.`,
    });
  });

  router.get('/webhooks/deliveries', requireMember('read'), async (req, res) => {
    const filters: DeliveryFilters = {
      status: queryText(req, 'status'),
      event: queryText(req, 'event'),
      from: queryText(req, 'from'),
      to: queryText(req, 'to'),
    };
    const notice = mockNotice(req);
    const view = { filters, notice, mayManage: memberMay(res, 'manage_webhooks'), mayMock: mayMock(res) };
    const { query, problems } = readDeliveryFilters(filters);
    if (Object.keys(problems).length > 0) {
      return sendPage(
        res,
        422,
        'Webhook deliveries',
        <DeliveriesPage {...view} deliveries={[]} problems={problems} error={firstProblem(problems)} />,
      );
    }
    let answer;
    try {
      answer = await notification.listDeliveries(
        { ...query, cursorPage: { cursor: queryText(req, 'cursor'), limit: 0 } },
        memberCall(res),
      );
    } catch (error) {
      // A cursor this list did not give, or a filter notification refuses: named, never a 500.
      if (!isStatus(error, Status.INVALID_ARGUMENT)) throw error;
      const refused = problemsOf(error);
      return sendPage(
        res,
        422,
        'Webhook deliveries',
        <DeliveriesPage {...view} deliveries={[]} problems={refused} error={firstProblem(refused) ?? error.message} />,
      );
    }
    sendPage(
      res,
      200,
      'Webhook deliveries',
      <DeliveriesPage
        {...view}
        deliveries={answer.deliveries}
        nextCursor={answer.cursorPage?.nextCursor}
        previousCursor={answer.cursorPage?.previousCursor}
      />,
    );
  });

  /** Bulk replay, a literal path listed before the :deliveryId routes (which differ in length anyway). */
  router.post('/webhooks/deliveries/replay-failed', requireMember('manage_webhooks'), async (req, res) => {
    const values: ReplayWindow = { since: textField(req, 'since').trim(), until: textField(req, 'until').trim() };
    const problems: Problems = {};
    const since = readTime(values.since, 'since', LABELS.since ?? 'since', problems);
    const until = readTime(values.until, 'until', LABELS.until ?? 'until', problems);
    if (values.since === '') problems.since = `${LABELS.since} is required.`;
    if (since && until && since.getTime() >= until.getTime()) {
      problems.until = `${LABELS.until} must be after ${LABELS.since}.`;
    }
    const again = (status: number, shown: Problems, error: string) =>
      sendPage(
        res,
        status,
        'Replay failed deliveries',
        <>
          <ErrorSummary message={error} />
          <ReplayFailedForm values={values} problems={shown} />
        </>,
      );
    if (!since || Object.keys(problems).length > 0) return again(422, problems, firstProblem(problems) ?? '');
    let answer;
    try {
      answer = await notification.replayFailedDeliveries(
        { since: timestampFromDate(since), ...(until ? { until: timestampFromDate(until) } : {}) },
        memberCall(res),
      );
    } catch (error) {
      if (!isStatus(error, Status.INVALID_ARGUMENT)) throw error;
      const refused = problemsOf(error);
      return again(422, refused, firstProblem(refused) ?? error.message);
    }
    const window = `${since.toISOString()} to ${until ? until.toISOString() : 'now'}`;
    await recordAudit(deps, req, res, {
      action: 'webhook.failed_deliveries_replayed',
      target: 'failed deliveries',
      details: `Replay of failed deliveries created ${window}: ${answer.queued} queued`,
    });
    sendPage(res, 200, 'Failed deliveries queued', <ReplayQueued queued={answer.queued} />);
  });

  /** A delivery id as notification issues them (a UUID); anything else names none, so notification is not asked. */
  function deliveryIdOf(req: Request): string {
    const deliveryId = String(req.params.deliveryId);
    if (!isUuid(deliveryId)) throw notFound('DELIVERY_NOT_FOUND', 'no such delivery');
    return deliveryId.toLowerCase();
  }

  router.get('/webhooks/deliveries/:deliveryId', requireMember('read'), async (req, res) => {
    const deliveryId = deliveryIdOf(req);
    const { delivery } = await notification.getDelivery({ deliveryId }, memberCall(res));
    if (!delivery) throw new Error('notification answered no delivery');
    sendPage(
      res,
      200,
      'Webhook delivery',
      <DeliveryPage
        delivery={delivery}
        mayManage={memberMay(res, 'manage_webhooks')}
        notice={DELIVERY_NOTICES[queryText(req, 'notice')]}
      />,
    );
  });

  router.post('/webhooks/deliveries/:deliveryId/replay', requireMember('manage_webhooks'), async (req, res) => {
    const deliveryId = deliveryIdOf(req);
    const { attempt } = await notification.replayDelivery(
      { deliveryId },
      { ...memberCall(res), timeoutMs: ATTEMPT_CALL_TIMEOUT_MS },
    );
    const succeeded = attempt?.outcome === AttemptOutcome.SUCCEEDED;
    await recordAudit(deps, req, res, {
      action: 'webhook.delivery_replayed',
      target: deliveryId,
      details: `Webhook delivery replayed (attempt ${attempt?.number ?? '?'}, ${succeeded ? 'succeeded' : 'failed'})`,
    });
    res.redirect(303, `/webhooks/deliveries/${deliveryId}?notice=replay-${succeeded ? 'succeeded' : 'failed'}`);
  });

  const mockPage = (res: Response, status: number, values: MockValues, problems: Problems = {}, error?: string) =>
    sendPage(res, status, 'Send a mock event', <MockEventForm values={values} problems={problems} error={error} />);

  router.get('/webhooks/mock-event', sandboxOnly, requireMember('manage_webhooks'), (_req, res) =>
    mockPage(res, 200, { event: EVENT_WORDS.words[0], data: '' }),
  );

  router.post('/webhooks/mock-event', sandboxOnly, requireMember('manage_webhooks'), async (req, res) => {
    const values: MockValues = { event: textField(req, 'event'), data: textField(req, 'data').trim() };
    const problems: Problems = {};
    if (!isWord(WEBHOOK_EVENTS, values.event)) problems.event = 'Event: choose one of the events listed.';
    let data: JsonObject | undefined;
    if (values.data !== '') {
      try {
        const parsed: unknown = JSON.parse(values.data);
        if (isJsonObject(parsed)) data = parsed as JsonObject;
        else problems.data = 'Fields to replace must be a JSON object, like {"new_status": "VERIFIED"}.';
      } catch {
        problems.data = 'Fields to replace is not valid JSON.';
      }
    }
    if (Object.keys(problems).length > 0) return mockPage(res, 422, values, problems, firstProblem(problems));
    let answer;
    try {
      answer = await notification.triggerMockWebhook(
        { event: EVENT_WORDS.toProto(values.event), ...(data ? { data } : {}) },
        { ...memberCall(res), timeoutMs: ATTEMPT_CALL_TIMEOUT_MS },
      );
    } catch (error) {
      if (isStatus(error, Status.INVALID_ARGUMENT)) {
        const refused = problemsOf(error);
        return mockPage(res, 422, values, refused, firstProblem(refused) ?? error.message);
      }
      // No registration yet: nowhere to send it (notification's WEBHOOK_NOT_FOUND), not a missing page.
      if (isStatus(error, Status.NOT_FOUND)) {
        return mockPage(
          res,
          409,
          values,
          {},
          'Register your webhook URLs on the Webhooks page before sending a mock event.',
        );
      }
      throw error;
    }
    const succeeded = answer.attempt?.outcome === AttemptOutcome.SUCCEEDED;
    await recordAudit(deps, req, res, {
      action: 'webhook.mock_sent',
      target: answer.delivery?.id ?? values.event,
      details: `Mock ${values.event} event sent (${succeeded ? 'succeeded' : 'failed'})`,
    });
    const query = new URLSearchParams({ notice: succeeded ? 'mock-succeeded' : 'mock-failed', event: values.event });
    res.redirect(303, `/webhooks/deliveries?${query.toString()}`);
  });

  return router;
}

function describeUrls(urls: WebhookUrls): string {
  return `collection_url ${urls.collection_url}, payout_url ${urls.payout_url}, kyc_url ${urls.kyc_url || 'none'}`;
}
