import { BlockList, isIP } from 'node:net';

/** Why an address is not a public destination; named after the IANA special-purpose registries' entries. */
export type NonGlobalKind =
  | 'not-an-ip'
  | 'this-network'
  | 'unspecified'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'shared-address-space'
  | 'ietf-protocol-assignment'
  | 'documentation'
  | 'benchmarking'
  | '6to4-relay-anycast'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'ipv4-mapped'
  | 'ipv4-compatible'
  | 'nat64'
  | 'nat64-local-use'
  | 'discard-only'
  | 'teredo'
  | '6to4'
  | 'unique-local'
  | 'site-local';

export type AddressClassification = { global: true } | { global: false; kind: NonGlobalKind; reason: string };

/** One special-purpose range: the reason reads "<ip> is <what>". */
interface SpecialRange {
  readonly cidr: string;
  readonly kind: NonGlobalKind;
  readonly what: string;
}

const IPV4_RANGES: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', kind: 'this-network', what: 'a "this network" address (0.0.0.0/8), never a destination' },
  { cidr: '10.0.0.0/8', kind: 'private', what: 'a private address (10.0.0.0/8)' },
  { cidr: '172.16.0.0/12', kind: 'private', what: 'a private address (172.16.0.0/12)' },
  { cidr: '192.168.0.0/16', kind: 'private', what: 'a private address (192.168.0.0/16)' },
  { cidr: '127.0.0.0/8', kind: 'loopback', what: 'a loopback address (127.0.0.0/8)' },
  // 169.254.169.254 is where cloud providers serve instance metadata and credentials.
  { cidr: '169.254.0.0/16', kind: 'link-local', what: 'a link-local address (169.254.0.0/16)' },
  {
    cidr: '100.64.0.0/10',
    kind: 'shared-address-space',
    what: 'a carrier-grade NAT shared address (100.64.0.0/10)',
  },
  {
    cidr: '192.0.0.0/24',
    kind: 'ietf-protocol-assignment',
    what: 'an IETF protocol assignment address (192.0.0.0/24)',
  },
  { cidr: '192.0.2.0/24', kind: 'documentation', what: 'a documentation address (192.0.2.0/24, TEST-NET-1)' },
  { cidr: '198.51.100.0/24', kind: 'documentation', what: 'a documentation address (198.51.100.0/24, TEST-NET-2)' },
  { cidr: '203.0.113.0/24', kind: 'documentation', what: 'a documentation address (203.0.113.0/24, TEST-NET-3)' },
  {
    cidr: '192.88.99.0/24',
    kind: '6to4-relay-anycast',
    what: 'a deprecated 6to4 relay anycast address (192.88.99.0/24)',
  },
  { cidr: '198.18.0.0/15', kind: 'benchmarking', what: 'a benchmarking address (198.18.0.0/15)' },
  { cidr: '224.0.0.0/4', kind: 'multicast', what: 'a multicast address (224.0.0.0/4)' },
  // Before 240.0.0.0/4, which contains it: the first match names the range.
  { cidr: '255.255.255.255/32', kind: 'broadcast', what: 'the limited broadcast address' },
  { cidr: '240.0.0.0/4', kind: 'reserved', what: 'a reserved address (240.0.0.0/4)' },
];

// Ranges whose embedded IPv4 address decides (::ffff:0:0/96, 64:ff9b::/96, 2002::/16) are handled in
// classifyIpv6, before these. ::/128 and ::1/128 come before ::/96, which contains them.
const IPV6_RANGES: readonly SpecialRange[] = [
  { cidr: '::/128', kind: 'unspecified', what: 'the unspecified address (::/128)' },
  { cidr: '::1/128', kind: 'loopback', what: 'the loopback address (::1/128)' },
  {
    cidr: '::/96',
    kind: 'ipv4-compatible',
    what: 'a deprecated IPv4-compatible IPv6 address (::/96)',
  },
  {
    cidr: '64:ff9b:1::/48',
    kind: 'nat64-local-use',
    what: 'a local-use NAT64 address (64:ff9b:1::/48), not globally reachable',
  },
  { cidr: '100::/64', kind: 'discard-only', what: 'a discard-only address (100::/64)' },
  { cidr: '2001::/32', kind: 'teredo', what: 'a Teredo tunnel address (2001::/32)' },
  {
    cidr: '2001::/23',
    kind: 'ietf-protocol-assignment',
    what: 'an IETF protocol assignment address (2001::/23)',
  },
  { cidr: '2001:db8::/32', kind: 'documentation', what: 'a documentation address (2001:db8::/32)' },
  { cidr: '3fff::/20', kind: 'documentation', what: 'a documentation address (3fff::/20)' },
  { cidr: 'fc00::/7', kind: 'unique-local', what: 'a unique local address (fc00::/7)' },
  { cidr: 'fe80::/10', kind: 'link-local', what: 'a link-local address (fe80::/10)' },
  { cidr: 'fec0::/10', kind: 'site-local', what: 'a deprecated site-local address (fec0::/10)' },
  { cidr: 'ff00::/8', kind: 'multicast', what: 'a multicast address (ff00::/8)' },
];

type Family = 'ipv4' | 'ipv6';

/** One BlockList per range, so the first match can name it. */
function compile(ranges: readonly SpecialRange[], family: Family): (ip: string) => SpecialRange | undefined {
  const compiled = ranges.map((range) => {
    const [network = '', prefix = ''] = range.cidr.split('/');
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return { range, list };
  });
  return (ip) => compiled.find(({ list }) => list.check(ip, family))?.range;
}

// Node's BlockList matches IPv4-mapped addresses across families (an ipv6 ::ffff:0:0/96 rule matches
// every IPv4 address checked as ipv4), so each family gets its own lists and ranges.
const ipv4Range = compile(IPV4_RANGES, 'ipv4');
const ipv6Range = compile(IPV6_RANGES, 'ipv6');
const subnet = (network: string, prefix: number): BlockList => {
  const list = new BlockList();
  list.addSubnet(network, prefix, 'ipv6');
  return list;
};
const IPV4_MAPPED = subnet('::ffff:0:0', 96);
const NAT64 = subnet('64:ff9b::', 96);
const SIX_TO_FOUR = subnet('2002::', 16);
const GLOBAL_UNICAST = subnet('2000::', 3);

/** The eight 16-bit groups of a valid IPv6 address (no zone), a trailing dotted quad included. */
function ipv6Groups(ip: string): number[] {
  const hex = ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a: string, b: string, c: string, d: string) => {
    const high = (Number(a) << 8) | Number(b);
    const low = (Number(c) << 8) | Number(d);
    return `${high.toString(16)}:${low.toString(16)}`;
  });
  const [head = '', tail] = hex.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function ipv4From(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function classifyIpv4(ip: string): AddressClassification {
  const range = ipv4Range(ip);
  return range ? { global: false, kind: range.kind, reason: `${ip} is ${range.what}` } : { global: true };
}

function classifyIpv6(ip: string, original: string): AddressClassification {
  const groups = ipv6Groups(ip);
  const group = (index: number): number => groups[index] ?? 0;

  if (IPV4_MAPPED.check(ip, 'ipv6')) {
    // IANA: not globally reachable. A public mapped address is still refused: a DNS answer or URL that
    // carries one is a mistake or an attempt to slip past an IPv4-only check.
    const ipv4 = ipv4From(group(6), group(7));
    const embedded = classifyIpv4(ipv4);
    const what = `an IPv4-mapped IPv6 address (::ffff:0:0/96) of ${ipv4}`;
    return {
      global: false,
      kind: 'ipv4-mapped',
      reason: embedded.global
        ? `${original} is ${what}, which is not globally reachable; use ${ipv4} itself`
        : `${original} is ${what}, and ${embedded.reason}`,
    };
  }

  const translated = NAT64.check(ip, 'ipv6')
    ? { kind: 'nat64' as const, what: 'a NAT64 address (64:ff9b::/96)', ipv4: ipv4From(group(6), group(7)) }
    : SIX_TO_FOUR.check(ip, 'ipv6')
      ? { kind: '6to4' as const, what: 'a 6to4 address (2002::/16)', ipv4: ipv4From(group(1), group(2)) }
      : undefined;
  if (translated) {
    // The translator or relay forwards to the embedded IPv4 address, so that address decides.
    const embedded = classifyIpv4(translated.ipv4);
    return embedded.global
      ? embedded
      : {
          global: false,
          kind: translated.kind,
          reason: `${original} is ${translated.what} embedding ${translated.ipv4}, and ${embedded.reason}`,
        };
  }

  const range = ipv6Range(ip);
  if (range) return { global: false, kind: range.kind, reason: `${original} is ${range.what}` };
  if (!GLOBAL_UNICAST.check(ip, 'ipv6')) {
    return {
      global: false,
      kind: 'reserved',
      reason: `${original} is outside the IPv6 global unicast range (2000::/3)`,
    };
  }
  return { global: true };
}

/**
 * Whether an IP address is a public (globally reachable) destination, per the IANA IPv4 and IPv6
 * special-purpose address registries. Anything that is not an IP address is not global.
 */
export function classifyAddress(ip: string): AddressClassification {
  switch (isIP(ip)) {
    case 4:
      return classifyIpv4(ip);
    case 6:
      // A zone (fe80::1%eth0) scopes an address to one interface; the address itself decides.
      return classifyIpv6((ip.split('%', 1)[0] ?? '').toLowerCase(), ip);
    default:
      return { global: false, kind: 'not-an-ip', reason: `${JSON.stringify(ip)} is not an IP address` };
  }
}
