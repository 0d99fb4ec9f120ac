import {
  BODY_PATH,
  describeJson,
  FieldProblems,
  firstProblemMessage,
  invalidArgument,
  isJsonObject,
  NOT_RECOGNISED,
} from '@corridor/grpc';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH, type WebhookUrlCheck } from '@corridor/ssrf-guard';
import type { NotificationContext } from '../context.js';

/** The public names of a registration's URLs (seed 2.4). */
const URL_FIELDS = ['collection_url', 'payout_url', 'kyc_url'] as const;
export type UrlField = (typeof URL_FIELDS)[number];

/** seed 2.4: both are required; kyc_url is optional, and null means "not registered". */
const REQUIRED: readonly UrlField[] = ['collection_url', 'payout_url'];

/** The URLs a body sets: a URL, null (kyc_url only: remove it), or absent (leave it as it is). */
export type WebhookUrls = Partial<Record<UrlField, string | null>>;

/** What a register body sets: both required URLs, kyc_url or null. */
export type NewWebhookUrls = Record<'collection_url' | 'payout_url', string> & { kyc_url: string | null };

const REQUIRED_NOT_NULL = 'is required and cannot be null; omit it to leave it unchanged';

const isUrlField = (key: string): key is UrlField => (URL_FIELDS as readonly string[]).includes(key);

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
 * Decision 0009: parses a POST (`register`) or PUT (`update`) body. Unknown keys, wrong types,
 * missing or nulled required URLs and every URL the SSRF guard refuses are reported at once (422).
 * URLs are kept in the URL standard's form (what was checked is what is called).
 */
async function validateWebhookBody(
  body: unknown,
  mode: 'register' | 'update',
  context: NotificationContext,
): Promise<WebhookUrls> {
  if (!isJsonObject(body)) {
    const problem = `must be a JSON object, got ${describeJson(body)}`;
    throw invalidArgument(`${BODY_PATH} ${problem}`, { [BODY_PATH]: [problem] });
  }
  const problems = new FieldProblems();

  const urls: WebhookUrls = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue; // not JSON: omitted
    if (!isUrlField(key)) problems.add(key, NOT_RECOGNISED);
    else if (value === null) {
      if (mode === 'update' && REQUIRED.includes(key)) problems.add(key, REQUIRED_NOT_NULL);
      else urls[key] = null;
    } else if (typeof value !== 'string') problems.add(key, `must be a string, got ${describeJson(value)}`);
    else urls[key] = value;
  }
  if (mode === 'register') {
    for (const key of REQUIRED) if (urls[key] == null && !problems.has(key)) problems.add(key, 'is required');
  }

  const check = urlChecker(context);
  const checked = await Promise.all(
    URL_FIELDS.map(async (key) => {
      const url = urls[key];
      return { key, result: typeof url === 'string' ? await check(url) : undefined };
    }),
  );
  for (const { key, result } of checked) {
    if (!result) continue;
    // Stored as the URL standard writes it ("HTTPS://Example.com" → "https://example.com/"), the
    // form that was checked and that every delivery will call.
    if (!result.ok) problems.add(key, fieldProblem(result));
    else if (result.url.href.length > MAX_WEBHOOK_URL_LENGTH) {
      problems.add(
        key,
        `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once written as a URL (percent-encoded it has ${result.url.href.length})`,
      );
    } else urls[key] = result.url.href;
  }
  if (!problems.isEmpty) throw invalidArgument(firstProblemMessage(problems.errors), problems.errors);
  return urls;
}

/** POST /webhook: both required URLs and kyc_url (null when not sent), or the 422. */
export async function validateRegistration(body: unknown, context: NotificationContext): Promise<NewWebhookUrls> {
  const urls = await validateWebhookBody(body, 'register', context);
  const { collection_url: collectionUrl, payout_url: payoutUrl } = urls;
  // Refused above when missing; this only narrows the type.
  if (typeof collectionUrl !== 'string' || typeof payoutUrl !== 'string') {
    throw new Error('a registration without collection_url and payout_url passed validation');
  }
  return { collection_url: collectionUrl, payout_url: payoutUrl, kyc_url: urls.kyc_url ?? null };
}

/** PUT /webhook/{id}: the URLs sent (null: remove kyc_url), or the 422. */
export const validateUpdate = (body: unknown, context: NotificationContext): Promise<WebhookUrls> =>
  validateWebhookBody(body, 'update', context);
