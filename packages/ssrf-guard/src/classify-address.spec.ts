import { classifyAddress } from './classify-address.js';

describe('classifyAddress', () => {
  it('names the kind and says why in a sentence', () => {
    expect(classifyAddress('127.0.0.1')).toEqual({
      global: false,
      kind: 'loopback',
      reason: '127.0.0.1 is a loopback address (127.0.0.0/8)',
    });
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.9.9.9',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
  ])('accepts the public address %s', (ip) => {
    expect(classifyAddress(ip)).toEqual({ global: true });
  });

  // [inside the range, its kind]: first and last addresses where the range is small enough to matter.
  it.each([
    ['0.0.0.0', 'this-network'],
    ['0.255.255.255', 'this-network'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.0', 'shared-address-space'],
    ['100.127.255.255', 'shared-address-space'],
    ['192.0.0.8', 'ietf-protocol-assignment'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.255', 'documentation'],
    ['192.88.99.1', '6to4-relay-anycast'],
    ['198.18.0.0', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses the IPv4 address %s as %s', (ip, kind) => {
    const classification = classifyAddress(ip);
    expect(classification).toMatchObject({ global: false, kind });
    expect(classification).toHaveProperty(
      'reason',
      expect.stringMatching(new RegExp(`^${ip.replaceAll('.', '\\.')} is `)),
    );
  });

  it.each([
    '1.0.0.1', // after 0.0.0.0/8
    '9.255.255.255', // before 10/8
    '11.0.0.1', // after 10/8
    '172.15.255.255', // before 172.16/12
    '172.32.0.1', // after 172.16/12
    '192.167.255.255', // before 192.168/16
    '192.169.0.1', // after 192.168/16
    '126.255.255.255', // before 127/8
    '128.0.0.1', // after 127/8
    '169.253.255.255', // before 169.254/16
    '169.255.0.1', // after 169.254/16
    '100.63.255.255', // before 100.64/10
    '100.128.0.1', // after 100.64/10
    '192.0.1.1', // after 192.0.0/24
    '192.0.3.1', // after 192.0.2/24
    '198.51.101.1', // after 198.51.100/24
    '203.0.114.1', // after 203.0.113/24
    '198.17.255.255', // before 198.18/15
    '198.20.0.1', // after 198.18/15
    '223.255.255.255', // before 224/4
  ])('accepts %s, just outside a special range', (ip) => {
    expect(classifyAddress(ip)).toEqual({ global: true });
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:db8:ffff::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['100::ffff:ffff:ffff:ffff', 'discard-only'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:2::1', 'ietf-protocol-assignment'], // benchmarking, inside 2001::/23
    ['64:ff9b:1::a00:1', 'nat64-local-use'],
    ['::2', 'ipv4-compatible'],
    ['::8.8.8.8', 'ipv4-compatible'],
    ['100:0:0:1::1', 'reserved'], // just after 100::/64
    ['4000::1', 'reserved'], // after 2000::/3
    ['1fff:ffff::1', 'reserved'], // before 2000::/3
    ['5f00::1', 'reserved'], // SRv6 SIDs
  ])('refuses the IPv6 address %s as %s', (ip, kind) => {
    expect(classifyAddress(ip)).toMatchObject({ global: false, kind });
  });

  it.each([
    '2001:200::1', // after 2001::/23
    '2001:db7:ffff::1', // before 2001:db8::/32
    '2001:db9::1', // after 2001:db8::/32
    '2003::1', // after 2002::/16
    '2000::1', // first of 2000::/3
    '3ffe::1', // before 3fff::/20
  ])('accepts %s, next to a special IPv6 range', (ip) => {
    expect(classifyAddress(ip)).toEqual({ global: true });
  });

  it('reads upper-case IPv6 and ignores a zone', () => {
    expect(classifyAddress('FE80::1%eth0')).toMatchObject({ global: false, kind: 'link-local' });
    expect(classifyAddress('FC00::1')).toMatchObject({ global: false, kind: 'unique-local' });
    expect(classifyAddress('2606:4700:4700::1111%eth0')).toEqual({ global: true });
  });

  describe('addresses that embed an IPv4 address', () => {
    it('refuses every IPv4-mapped address, saying what the IPv4 address is', () => {
      expect(classifyAddress('::ffff:127.0.0.1')).toEqual({
        global: false,
        kind: 'ipv4-mapped',
        reason:
          '::ffff:127.0.0.1 is an IPv4-mapped IPv6 address (::ffff:0:0/96) of 127.0.0.1, and 127.0.0.1 is a loopback address (127.0.0.0/8)',
      });
      expect(classifyAddress('::ffff:a00:1')).toMatchObject({
        kind: 'ipv4-mapped',
        reason: expect.stringContaining('10.0.0.1 is a private address'),
      });
      expect(classifyAddress('::ffff:169.254.169.254')).toMatchObject({
        kind: 'ipv4-mapped',
        reason: expect.stringContaining('link-local'),
      });
      // IANA: ::ffff:0:0/96 is not globally reachable, whatever it maps.
      expect(classifyAddress('::ffff:8.8.8.8')).toMatchObject({
        global: false,
        kind: 'ipv4-mapped',
        reason: expect.stringContaining('use 8.8.8.8 itself'),
      });
    });

    it('classifies NAT64 (64:ff9b::/96) by the IPv4 address in its last 32 bits', () => {
      expect(classifyAddress('64:ff9b::a00:1')).toEqual({
        global: false,
        kind: 'nat64',
        reason:
          '64:ff9b::a00:1 is a NAT64 address (64:ff9b::/96) embedding 10.0.0.1, and 10.0.0.1 is a private address (10.0.0.0/8)',
      });
      expect(classifyAddress('64:ff9b::127.0.0.1')).toMatchObject({ global: false, kind: 'nat64' });
      expect(classifyAddress('64:ff9b::a9fe:a9fe')).toMatchObject({ global: false, kind: 'nat64' });
      expect(classifyAddress('64:ff9b::808:808')).toEqual({ global: true });
    });

    it('classifies 6to4 (2002::/16) by the IPv4 address in bits 16 to 47', () => {
      expect(classifyAddress('2002:c0a8:101::1')).toEqual({
        global: false,
        kind: '6to4',
        reason:
          '2002:c0a8:101::1 is a 6to4 address (2002::/16) embedding 192.168.1.1, and 192.168.1.1 is a private address (192.168.0.0/16)',
      });
      expect(classifyAddress('2002:7f00:1::')).toMatchObject({ global: false, kind: '6to4' });
      expect(classifyAddress('2002:808:808::1')).toEqual({ global: true });
    });
  });

  it.each(['example.com', '', '127.1', '2130706433', '999.1.1.1', '[::1]', '8.8.8.8%eth0', ' 8.8.8.8'])(
    'refuses %j, which is not an IP address',
    (input) => {
      expect(classifyAddress(input)).toEqual({
        global: false,
        kind: 'not-an-ip',
        reason: `${JSON.stringify(input)} is not an IP address`,
      });
    },
  );
});
