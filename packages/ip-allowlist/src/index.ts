import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is the IPv4 address it maps, so one entry covers both forms. */
function normalize(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

function parseEntry(entry: string): [Address, number] {
  if (entry.includes('/')) {
    const [address, prefix] = ipaddr.parseCIDR(entry);
    return [address, prefix];
  }
  const address = normalize(ipaddr.parse(entry));
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** The problem with an allow-list entry, or undefined when it is a valid address or CIDR. */
export function allowlistEntryProblem(entry: string): string | undefined {
  try {
    parseEntry(entry);
    return undefined;
  } catch {
    return `${JSON.stringify(entry)} is not an IP address or CIDR (for example 203.0.113.7 or 203.0.113.0/24)`;
  }
}

/** True when the list is empty (no restriction) or the address falls in one of its entries. */
export function ipAllowed(ip: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  let address: Address;
  try {
    address = normalize(ipaddr.parse(ip));
  } catch {
    return false;
  }
  return allowlist.some((entry) => {
    try {
      const [network, prefix] = parseEntry(entry);
      return network.kind() === address.kind() && address.match(network, prefix);
    } catch {
      return false;
    }
  });
}
