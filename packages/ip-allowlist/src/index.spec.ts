import { allowlistEntryProblem, ipAllowed } from './index.js';

describe('ip allow-list', () => {
  it('allows everything when empty', () => expect(ipAllowed('198.51.100.9', [])).toBe(true));

  it('matches exact addresses and CIDRs of both families', () => {
    const list = ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'];
    expect(ipAllowed('203.0.113.7', list)).toBe(true);
    expect(ipAllowed('203.0.113.8', list)).toBe(false);
    expect(ipAllowed('198.51.100.250', list)).toBe(true);
    expect(ipAllowed('2001:db8:1::5', list)).toBe(true);
    expect(ipAllowed('2001:db9::5', list)).toBe(false);
  });

  it('treats an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(ipAllowed('::ffff:203.0.113.7', ['203.0.113.7'])).toBe(true);
    expect(ipAllowed('::ffff:127.0.0.1', ['203.0.113.7'])).toBe(false);
  });

  it('refuses garbage addresses and names bad entries', () => {
    expect(ipAllowed('not-an-ip', ['0.0.0.0/0'])).toBe(false);
    expect(allowlistEntryProblem('10.0.0.0/8')).toBeUndefined();
    expect(allowlistEntryProblem('10.0.0.300')).toMatch(/is not an IP address or CIDR/);
  });
});
