import type {
  RegisterWebhookRequest,
  UpdateWebhookRequest,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { invalidArgument } from '@corridor/grpc';
import { FieldProblems, firstProblemMessage } from '@corridor/validation';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH, type WebhookUrlCheck } from '@corridor/ssrf-guard';
import type { NotificationContext } from '../context.js';

/** The public names of a registration's URLs (seed 2.4). */
const URL_FIELDS = ['collection_url', 'payout_url', 'kyc_url'] as const;
export type UrlField = (typeof URL_FIELDS)[number];

/**
 * The URLs a request sets, by public name: a URL, null (kyc_url only: remove it), or absent (leave
 * it as it is). seed 2.4: collection_url and payout_url are never removed.
 */
export interface WebhookUrls {
  collection_url?: string;
  payout_url?: string;
  kyc_url?: string | null;
}

/** What a registration sets: both required URLs, kyc_url or null. */
export type NewWebhookUrls = Record<'collection_url' | 'payout_url', string> & { kyc_url: string | null };

/**
 * The guard's sentence names its subject "webhook URL"; in the 422 the field name takes its place:
 * `collection_url must reach only public addresses: hooks.example.com resolves to 10.0.0.7, and …`.
 */
const fieldProblem = (check: WebhookUrlCheck & { ok: false }) => check.problem.replace(/^webhook URL /, '');

/**
 * Checks each distinct URL once (collection_url and payout_url are often the same), so one
 * request resolves a host name once per URL.
 */
function urlChecker(context: NotificationContext) {
  const checks = new Map<string, Promise<WebhookUrlCheck>>();
  const options = {
    allowCidrs: context.webhookUrls.allowCidrs,
    requireHttps: true,
    ...(context.webhookUrls.resolve ? { resolve: context.webhookUrls.resolve } : {}),
  };
  return (url: string) => {
    let check = checks.get(url);
    if (!check) {
      check = checkWebhookUrl(url, options);
      checks.set(url, check);
    }
    return check;
  };
}

/**
 * Decision 0009: checks each URL a request sets (the gateway has checked the body's shape, decision
 * 0026); every URL the SSRF guard refuses is reported at once (422). URLs are kept in the URL
 * standard's form (what was checked is what is called).
 */
async function checkUrls(urls: WebhookUrls, context: NotificationContext): Promise<WebhookUrls> {
  const problems = new FieldProblems();
  const checked = { ...urls };
  const check = urlChecker(context);
  const results = await Promise.all(
    URL_FIELDS.map(async (key) => {
      const url = urls[key];
      return { key, result: typeof url === 'string' ? await check(url) : undefined };
    }),
  );
  for (const { key, result } of results) {
    if (!result) continue;
    // Stored as the URL standard writes it ("HTTPS://Example.com" → "https://example.com/"), the
    // form that was checked and that every delivery will call.
    if (!result.ok) problems.add(key, fieldProblem(result));
    else if (result.url.href.length > MAX_WEBHOOK_URL_LENGTH) {
      problems.add(
        key,
        `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once written as a URL (percent-encoded it has ${result.url.href.length})`,
      );
    } else checked[key] = result.url.href;
  }
  if (!problems.isEmpty) throw invalidArgument(firstProblemMessage(problems.errors), problems.errors);
  return checked;
}

/** POST /webhook: both required URLs and kyc_url (null when not sent), checked, or the 422. */
export async function validateRegistration(
  request: Pick<RegisterWebhookRequest, 'collectionUrl' | 'payoutUrl' | 'kycUrl'>,
  context: NotificationContext,
): Promise<NewWebhookUrls> {
  const urls = await checkUrls(
    { collection_url: request.collectionUrl, payout_url: request.payoutUrl, kyc_url: request.kycUrl ?? null },
    context,
  );
  return {
    collection_url: urls.collection_url ?? '',
    payout_url: urls.payout_url ?? '',
    kyc_url: urls.kyc_url ?? null,
  };
}

/** PUT /webhook/{id}: the URLs set, checked (kyc_url null: remove it), or the 422. */
export function validateUpdate(
  request: Pick<UpdateWebhookRequest, 'collectionUrl' | 'payoutUrl' | 'kycUrlChange'>,
  context: NotificationContext,
): Promise<WebhookUrls> {
  const { kycUrlChange: kyc } = request;
  return checkUrls(
    {
      ...(request.collectionUrl === undefined ? {} : { collection_url: request.collectionUrl }),
      ...(request.payoutUrl === undefined ? {} : { payout_url: request.payoutUrl }),
      ...(kyc.case === 'kycUrl' ? { kyc_url: kyc.value } : {}),
      // remove_kyc_url is sent true; false says nothing, as an absent field does.
      ...(kyc.case === 'removeKycUrl' && kyc.value ? { kyc_url: null } : {}),
    },
    context,
  );
}
