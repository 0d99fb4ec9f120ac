import { type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { checkWebhookUrl, type WebhookUrlCheck, type WebhookUrlOptions } from './check-webhook-url.js';

type LookupCallback = Parameters<LookupFunction>[2];

function requestedFamily(options: LookupOptions | number | undefined): number {
  const family = typeof options === 'number' ? options : options?.family;
  if (family === 'IPv4') return 4;
  if (family === 'IPv6') return 6;
  return family ?? 0;
}

/**
 * A `lookup` for `https.request`, `net.connect`, `tls.connect` (and undici's `connect` options, which
 * reach them) that answers every host name with the given addresses, never asking DNS again: the
 * connection goes to the address that was checked, whatever the name resolves to by then.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const pinned: LookupAddress[] = [...new Set(addresses)].map((address) => {
    const family = isIP(address);
    if (family === 0) throw new TypeError(`pinnedLookup: ${JSON.stringify(address)} is not an IP address`);
    return { address, family };
  });
  if (pinned.length === 0) throw new TypeError('pinnedLookup needs at least one address');

  // Also accepts dns.lookup's other call shapes: (hostname, family, callback) and (hostname, callback).
  return (
    hostname: string,
    optionsOrCallback: LookupOptions | number | LookupCallback,
    maybeCallback?: LookupCallback,
  ): void => {
    const options = typeof optionsOrCallback === 'function' ? undefined : optionsOrCallback;
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
    if (callback === undefined) throw new TypeError('pinnedLookup: a callback is required');
    const all = typeof options === 'object' && options.all === true;
    const family = requestedFamily(options);
    const answers = family === 0 ? pinned : pinned.filter((candidate) => candidate.family === family);
    const first = answers[0];

    // dns.lookup never calls back synchronously; callers such as net rely on that.
    process.nextTick(() => {
      if (first === undefined) {
        const error: NodeJS.ErrnoException = new Error(
          `getaddrinfo ENOTFOUND ${hostname}: no pinned IPv${family} address`,
        );
        error.code = 'ENOTFOUND';
        callback(error, all ? [] : '', family);
      } else if (all) {
        callback(
          null,
          answers.map((answer) => ({ ...answer })),
        );
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

export type PinnedWebhookUrl =
  { ok: true; url: URL; addresses: string[]; lookup: LookupFunction } | Extract<WebhookUrlCheck, { ok: false }>;

/**
 * Delivery time: check the URL again (resolve, refuse non-public answers) and return a `lookup` pinned
 * to the addresses just checked, so the connection cannot be pointed elsewhere by a DNS change.
 */
export async function resolveAndPin(url: string, options: WebhookUrlOptions = {}): Promise<PinnedWebhookUrl> {
  const checked = await checkWebhookUrl(url, options);
  return checked.ok ? { ...checked, lookup: pinnedLookup(checked.addresses) } : checked;
}
