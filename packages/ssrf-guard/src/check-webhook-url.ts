import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { classifyAddress } from './classify-address.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface WebhookUrlOptions {
  /** Every A and AAAA address of a host name; defaults to the system resolver (`dns.lookup`, all). */
  resolve?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
  /**
   * Addresses and CIDRs let through although not public. For tests only (receivers on 127.0.0.1):
   * the caller's configuration must refuse a non-empty list in production.
   */
  allowCidrs?: readonly string[];
  /** Refuse http:; only tests turn this off. Default true. */
  requireHttps?: boolean;
  /**
   * How long the host name may take to resolve: under the RPC deadline (5 s), so a stalled lookup
   * is a named 422 rather than the caller's 504 (issue 18). Default 2,000 ms.
   */
  resolveTimeoutMs?: number;
}

export const DEFAULT_RESOLVE_TIMEOUT_MS = 2_000;

export type WebhookUrlCheck =
  | { ok: true; url: URL; addresses: string[] }
  /** `unresolved`: the host name gave no address (DNS), rather than a refused one or a bad URL. */
  | { ok: false; problem: string; unresolved?: true };

const systemResolve = (hostname: string): Promise<readonly ResolvedAddress[]> =>
  dns.lookup(hostname, { all: true, order: 'verbatim' });

/** The allow-list as one BlockList; a bad entry is a configuration error and throws naming it. */
function compileAllowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [network = '', prefix, extra] = entry.split('/');
    const family = isIP(network);
    if (family === 0 || extra !== undefined || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) {
      throw new Error(`allowCidrs entry ${JSON.stringify(entry)} is not an IP address or CIDR`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    try {
      if (prefix === undefined) list.addAddress(network, type);
      else list.addSubnet(network, Number(prefix), type);
    } catch {
      throw new Error(`allowCidrs entry ${JSON.stringify(entry)} is not an IP address or CIDR`);
    }
  }
  return list;
}

function allowed(address: string, allowList: BlockList | undefined): boolean {
  const family = isIP(address);
  // BlockList matches an IPv4-mapped address against IPv4 entries, so 127.0.0.0/8 also lets ::ffff:127.0.0.1 in.
  return allowList !== undefined && family !== 0 && allowList.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether a platform's webhook URL may be registered or delivered to: an absolute https URL without
 * credentials whose host is, or resolves only to, public addresses. `problem` is the sentence for the 422.
 */
export async function checkWebhookUrl(url: string, options: WebhookUrlOptions = {}): Promise<WebhookUrlCheck> {
  const { resolve = systemResolve, requireHttps = true, resolveTimeoutMs = DEFAULT_RESOLVE_TIMEOUT_MS } = options;
  const allowList = options.allowCidrs?.length ? compileAllowList(options.allowCidrs) : undefined;

  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    return {
      ok: false,
      problem: `webhook URL is ${url.length} characters long; the limit is ${MAX_WEBHOOK_URL_LENGTH}`,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      ok: false,
      problem: 'webhook URL is not an absolute URL with a host (for example https://hooks.example.com/corridor)',
    };
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'https' && (requireHttps || scheme !== 'http')) {
    return { ok: false, problem: `webhook URL must use https, not ${scheme}` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, problem: 'webhook URL must not contain a user name or password' };
  }
  // Nothing can ever be delivered to port 0 (issue 18); URL itself refuses ports above 65535.
  if (parsed.port === '0') {
    return { ok: false, problem: 'webhook URL port must be from 1 to 65535, not 0' };
  }

  // WHATWG URL has already turned 2130706433, 0x7f.1, 127.1 and 0177.0.0.1 into 127.0.0.1, and keeps
  // IPv6 literals in brackets.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const refusal = (address: string): string | undefined => {
    const classification = classifyAddress(address);
    return classification.global || allowed(address, allowList) ? undefined : classification.reason;
  };

  if (isIP(host) !== 0) {
    const reason = refusal(host);
    return reason === undefined
      ? { ok: true, url: parsed, addresses: [host] }
      : { ok: false, problem: `webhook URL must reach a public address: ${reason}` };
  }

  let resolved: readonly ResolvedAddress[];
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('lookup timed out'), { code: `no answer within ${resolveTimeoutMs} ms` })),
      resolveTimeoutMs,
    );
  });
  try {
    resolved = await Promise.race([resolve(host), stalled]);
  } catch (error) {
    return {
      ok: false,
      problem: `webhook URL host ${host} could not be resolved: ${errorCode(error)}`,
      unresolved: true,
    };
  } finally {
    clearTimeout(timer);
  }
  const addresses = [...new Set(resolved.map(({ address }) => address))];
  if (addresses.length === 0) {
    return { ok: false, problem: `webhook URL host ${host} does not resolve to any address`, unresolved: true };
  }
  // One non-public answer is enough: a connection may use any of them.
  for (const address of addresses) {
    const reason = refusal(address);
    if (reason !== undefined) {
      return {
        ok: false,
        problem: `webhook URL must reach only public addresses: ${host} resolves to ${address}, and ${reason}`,
      };
    }
  }
  return { ok: true, url: parsed, addresses };
}
