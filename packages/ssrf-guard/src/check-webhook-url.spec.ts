import { checkWebhookUrl, type ResolvedAddress, type WebhookUrlOptions } from './check-webhook-url.js';

/** A resolver answering from a table, recording the names it was asked; no network. */
function resolverOf(table: Record<string, readonly string[]>) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    return (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

const failingResolver = (error: unknown): WebhookUrlOptions['resolve'] => {
  return async () => {
    throw error;
  };
};

async function problemOf(url: string, options: WebhookUrlOptions = {}): Promise<string> {
  const result = await checkWebhookUrl(url, options);
  if (result.ok) throw new Error(`expected ${url} to be refused, it was accepted with ${result.addresses.join(', ')}`);
  return result.problem;
}

describe('checkWebhookUrl', () => {
  it('accepts an https URL whose host resolves only to public addresses, and returns them', async () => {
    const { resolve, asked } = resolverOf({ 'hooks.example.com': ['8.8.8.8', '2606:4700:4700::1111'] });
    const result = await checkWebhookUrl('https://hooks.example.com/corridor?x=1', { resolve });
    expect(result).toEqual({
      ok: true,
      url: new URL('https://hooks.example.com/corridor?x=1'),
      addresses: ['8.8.8.8', '2606:4700:4700::1111'],
    });
    expect(asked).toEqual(['hooks.example.com']);
  });

  it('accepts a port and lists each address once', async () => {
    const { resolve } = resolverOf({ 'hooks.example.com': ['1.1.1.1', '1.1.1.1'] });
    const result = await checkWebhookUrl('https://hooks.example.com:8443/x', { resolve });
    expect(result).toMatchObject({ ok: true, addresses: ['1.1.1.1'] });
    expect(result.ok && result.url.port).toBe('8443');
  });

  it('refuses port 0, to which nothing can ever be delivered (issue 18)', async () => {
    const { resolve, asked } = resolverOf({ 'hooks.example.com': ['1.1.1.1'] });
    expect(await checkWebhookUrl('https://hooks.example.com:0/x', { resolve })).toEqual({
      ok: false,
      problem: 'webhook URL port must be from 1 to 65535, not 0',
    });
    expect(asked).toEqual([]);
  });

  it('gives a stalled lookup its own time limit, under the call deadline, and says so (issue 18)', async () => {
    const never = () => new Promise<never>(() => undefined);
    const started = Date.now();
    const result = await checkWebhookUrl('https://slow.example.com/x', { resolve: never, resolveTimeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result).toEqual({
      ok: false,
      problem: 'webhook URL host slow.example.com could not be resolved: no answer within 100 ms',
      unresolved: true,
    });
  });

  it('accepts public IP literals without asking DNS', async () => {
    const { resolve, asked } = resolverOf({});
    expect(await checkWebhookUrl('https://8.8.8.8/hooks', { resolve })).toMatchObject({
      ok: true,
      addresses: ['8.8.8.8'],
    });
    expect(await checkWebhookUrl('https://[2606:4700:4700::1111]:443/', { resolve })).toMatchObject({
      ok: true,
      addresses: ['2606:4700:4700::1111'],
    });
    expect(asked).toEqual([]);
  });

  describe('the URL itself', () => {
    it.each([
      ['http://hooks.example.com/', 'webhook URL must use https, not http'],
      ['ftp://hooks.example.com/', 'webhook URL must use https, not ftp'],
      ['javascript:alert(1)', 'webhook URL must use https, not javascript'],
      ['file:///etc/passwd', 'webhook URL must use https, not file'],
    ])('refuses %s', async (url, problem) => {
      const { resolve } = resolverOf({ 'hooks.example.com': ['8.8.8.8'] });
      expect(await problemOf(url, { resolve })).toBe(problem);
    });

    it('allows http only when requireHttps is off, and never another scheme', async () => {
      const { resolve } = resolverOf({ 'hooks.example.com': ['8.8.8.8'] });
      expect(await checkWebhookUrl('http://hooks.example.com/', { resolve, requireHttps: false })).toMatchObject({
        ok: true,
      });
      expect(await problemOf('ftp://hooks.example.com/', { resolve, requireHttps: false })).toBe(
        'webhook URL must use https, not ftp',
      );
    });

    it.each([
      'https://user:secret@hooks.example.com/',
      'https://user@hooks.example.com/',
      'https://:secret@hooks.example.com/',
    ])('refuses credentials in %s', async (url) => {
      const { resolve } = resolverOf({ 'hooks.example.com': ['8.8.8.8'] });
      expect(await problemOf(url, { resolve })).toBe('webhook URL must not contain a user name or password');
    });

    it.each(['/hooks', 'hooks.example.com/corridor', 'https://', 'https://exa mple.com/', ''])(
      'refuses %j, which is not an absolute URL with a host',
      async (url) => {
        expect(await problemOf(url, { resolve: resolverOf({}).resolve })).toMatch(
          /^webhook URL is not an absolute URL with a host/,
        );
      },
    );

    it('refuses URLs longer than 2048 characters', async () => {
      const { resolve } = resolverOf({ 'hooks.example.com': ['8.8.8.8'] });
      const base = 'https://hooks.example.com/';
      const longest = base + 'a'.repeat(2048 - base.length);
      expect(await checkWebhookUrl(longest, { resolve })).toMatchObject({ ok: true });
      expect(await problemOf(longest + 'a', { resolve })).toBe(
        'webhook URL is 2049 characters long; the limit is 2048',
      );
    });
  });

  describe('IP-literal hosts', () => {
    // WHATWG URL normalises decimal, hex, octal and short IPv4 forms to dotted quads before we see them.
    it.each([
      ['https://127.0.0.1/', 'loopback'],
      ['http://2130706433/', 'loopback'],
      ['https://0x7f.1/', 'loopback'],
      ['https://0x7f000001/', 'loopback'],
      ['https://127.1/', 'loopback'],
      ['https://0177.0.0.1/', 'loopback'],
      ['https://127.0.0.1./', 'loopback'],
      ['https://0/', '"this network"'],
      ['https://169.254.169.254/latest/meta-data/', 'link-local'],
      ['https://10.1.2.3:8443/', 'private'],
      ['https://[::1]/', 'loopback'],
      ['https://[::]/', 'unspecified'],
      ['https://[fe80::1]/', 'link-local'],
      ['https://[fd00::1]/', 'unique local'],
      ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped'],
      ['https://[::ffff:7f00:1]/', 'IPv4-mapped'],
      ['https://[::ffff:a9fe:a9fe]/', 'IPv4-mapped'],
      ['https://[64:ff9b::10.0.0.1]/', 'NAT64'],
      ['https://[2002:c0a8:101::1]/', '6to4'],
    ])('refuses %s (%s) without asking DNS', async (url, words) => {
      const { resolve, asked } = resolverOf({});
      const problem = await problemOf(url, { resolve, requireHttps: false });
      expect(problem).toMatch(/^webhook URL must reach a public address: /);
      expect(problem).toContain(words);
      expect(asked).toEqual([]);
    });

    it('says which address the odd form stood for', async () => {
      expect(await problemOf('https://2130706433/')).toBe(
        'webhook URL must reach a public address: 127.0.0.1 is a loopback address (127.0.0.0/8)',
      );
    });
  });

  describe('host names', () => {
    it('refuses a name resolving to one public and one private address, naming the private one', async () => {
      const { resolve } = resolverOf({ 'hooks.example.com': ['8.8.8.8', '10.0.0.5'] });
      expect(await problemOf('https://hooks.example.com/', { resolve })).toBe(
        'webhook URL must reach only public addresses: hooks.example.com resolves to 10.0.0.5, and 10.0.0.5 is a private address (10.0.0.0/8)',
      );
    });

    it.each([
      ['fd12:3456::1', 'unique local'],
      ['::ffff:192.168.0.1', 'IPv4-mapped'],
      ['64:ff9b::7f00:1', 'NAT64'],
      ['127.0.0.1', 'loopback'],
      ['100.100.100.200', 'carrier-grade NAT'],
    ])('refuses a name resolving to %s (%s)', async (address, words) => {
      const { resolve } = resolverOf({ 'hooks.example.com': ['2606:4700:4700::1111', address] });
      const problem = await problemOf('https://hooks.example.com/', { resolve });
      expect(problem).toContain(`hooks.example.com resolves to ${address}`);
      expect(problem).toContain(words);
    });

    it('refuses a name that resolves to nothing', async () => {
      expect(await problemOf('https://empty.example.com/', { resolve: resolverOf({}).resolve })).toBe(
        'webhook URL host empty.example.com does not resolve to any address',
      );
    });

    it('refuses a name that cannot be resolved, with the resolver code', async () => {
      const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
      expect(await problemOf('https://nowhere.example/', { resolve: failingResolver(notFound) })).toBe(
        'webhook URL host nowhere.example could not be resolved: ENOTFOUND',
      );
      expect(await problemOf('https://nowhere.example/', { resolve: failingResolver(new Error('timed out')) })).toBe(
        'webhook URL host nowhere.example could not be resolved: timed out',
      );
    });

    it('marks only a name without addresses as unresolved, so a sender can tell DNS from a refusal', async () => {
      const { resolve } = resolverOf({ 'inside.example.com': ['10.0.0.1'] });
      expect(await checkWebhookUrl('https://empty.example.com/', { resolve })).toMatchObject({ unresolved: true });
      expect(
        await checkWebhookUrl('https://nowhere.example/', { resolve: failingResolver(new Error('x')) }),
      ).toMatchObject({ unresolved: true });
      expect(await checkWebhookUrl('https://inside.example.com/', { resolve })).not.toHaveProperty('unresolved');
      expect(await checkWebhookUrl('http://hooks.example.com/', { resolve })).not.toHaveProperty('unresolved');
    });

    it('uses the system resolver by default (localhost, from the hosts file)', async () => {
      expect(await problemOf('https://localhost/')).toMatch(
        /^webhook URL must reach only public addresses: localhost resolves to (127\.0\.0\.1|::1), and .* loopback address/,
      );
    });
  });

  describe('the test-only allow list', () => {
    it('lets 127.0.0.1 through as a literal and as a resolved address', async () => {
      const { resolve } = resolverOf({ localhost: ['127.0.0.1', '::1'] });
      const allowCidrs = ['127.0.0.0/8', '::1'];
      expect(
        await checkWebhookUrl('http://127.0.0.1:4010/hooks', { resolve, allowCidrs, requireHttps: false }),
      ).toMatchObject({ ok: true, addresses: ['127.0.0.1'] });
      expect(await checkWebhookUrl('https://localhost:4010/hooks', { resolve, allowCidrs })).toMatchObject({
        ok: true,
        addresses: ['127.0.0.1', '::1'],
      });
    });

    it('lets through only what it lists', async () => {
      const { resolve } = resolverOf({ mixed: ['127.0.0.1', '10.0.0.1'] });
      const allowCidrs = ['127.0.0.1'];
      expect(await problemOf('https://mixed/', { resolve, allowCidrs })).toContain('resolves to 10.0.0.1');
      expect(await problemOf('https://127.0.0.2/', { resolve, allowCidrs })).toContain('127.0.0.2 is a loopback');
      expect(await problemOf('https://[::1]/', { resolve, allowCidrs })).toContain('::1 is the loopback');
    });

    it('lets the IPv4-mapped form of a listed address through too', async () => {
      expect(await checkWebhookUrl('https://[::ffff:127.0.0.1]/', { allowCidrs: ['127.0.0.0/8'] })).toMatchObject({
        ok: true,
        addresses: ['::ffff:7f00:1'],
      });
    });

    it('refuses everything non-public when empty', async () => {
      expect(await problemOf('https://127.0.0.1/', { allowCidrs: [] })).toContain('loopback');
    });

    it.each(['localhost', '10.0.0.0/33', '10.0.0.0/8/8', '10.0.0.0/x', '300.0.0.0/8', 'fe80::/129'])(
      'throws on the bad entry %j, naming it',
      async (entry) => {
        await expect(checkWebhookUrl('https://8.8.8.8/', { allowCidrs: [entry] })).rejects.toThrow(
          `allowCidrs entry ${JSON.stringify(entry)} is not an IP address or CIDR`,
        );
      },
    );
  });
});
