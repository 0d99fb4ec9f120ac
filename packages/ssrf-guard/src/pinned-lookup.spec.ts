import { type LookupAddress, type LookupOptions } from 'node:dns';
import { createServer, request } from 'node:http';
import { type AddressInfo, type LookupFunction } from 'node:net';
import { type ResolvedAddress } from './check-webhook-url.js';
import { pinnedLookup, resolveAndPin } from './pinned-lookup.js';

interface Answer {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
}

/** Calls a lookup the way net does and collects what it answers. */
function ask(lookup: LookupFunction, hostname: string, options: LookupOptions): Promise<Answer> {
  return new Promise((resolve) => {
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

describe('pinnedLookup', () => {
  const lookup = pinnedLookup(['203.0.113.10', '2001:db8::10', '198.51.100.20']);

  it('answers the first pinned address whatever the host name', async () => {
    for (const hostname of ['hooks.example.com', 'rebound.example.net', 'localhost']) {
      expect(await ask(lookup, hostname, {})).toEqual({ error: null, address: '203.0.113.10', family: 4 });
    }
  });

  it('answers every pinned address, with its family, when asked for all', async () => {
    expect(await ask(lookup, 'hooks.example.com', { all: true })).toEqual({
      error: null,
      address: [
        { address: '203.0.113.10', family: 4 },
        { address: '2001:db8::10', family: 6 },
        { address: '198.51.100.20', family: 4 },
      ],
      family: undefined,
    });
  });

  it('honours the family asked for, as a number or a name', async () => {
    expect(await ask(lookup, 'h', { family: 6 })).toEqual({ error: null, address: '2001:db8::10', family: 6 });
    expect(await ask(lookup, 'h', { family: 'IPv6' })).toMatchObject({ address: '2001:db8::10', family: 6 });
    expect(await ask(lookup, 'h', { family: 4, all: true })).toMatchObject({
      address: [
        { address: '203.0.113.10', family: 4 },
        { address: '198.51.100.20', family: 4 },
      ],
    });
    expect(await ask(lookup, 'h', { family: 0, all: true })).toMatchObject({ address: { length: 3 } });
  });

  it('fails with ENOTFOUND when no pinned address has the family asked for', async () => {
    const answer = await ask(pinnedLookup(['203.0.113.10']), 'hooks.example.com', { family: 6 });
    expect(answer.error).toMatchObject({ code: 'ENOTFOUND', message: expect.stringContaining('hooks.example.com') });
  });

  it("also takes dns.lookup's (hostname, family, callback) and (hostname, callback) shapes", async () => {
    const loose = lookup as unknown as (...args: unknown[]) => void;
    const byFamily = await new Promise((resolve) => loose('h', 6, (_e: unknown, address: string) => resolve(address)));
    expect(byFamily).toBe('2001:db8::10');
    const bare = await new Promise((resolve) => loose('h', (_e: unknown, address: string) => resolve(address)));
    expect(bare).toBe('203.0.113.10');
  });

  it('calls back asynchronously, as dns.lookup does', () => {
    let answered = false;
    lookup('h', {}, () => {
      answered = true;
    });
    expect(answered).toBe(false);
  });

  it('refuses to pin nothing or something that is not an IP address', () => {
    expect(() => pinnedLookup([])).toThrow('pinnedLookup needs at least one address');
    expect(() => pinnedLookup(['hooks.example.com'])).toThrow('"hooks.example.com" is not an IP address');
  });

  it('is what node:http connects through: a request for a name reaches the pinned address', async () => {
    const server = createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = request(
          { host: 'hooks.example.invalid', port, path: '/', lookup: pinnedLookup(['127.0.0.1']) },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('pinned');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('resolveAndPin', () => {
  it('pins the addresses checked, so a later DNS answer cannot redirect the connection', async () => {
    // DNS rebinding: public when checked, loopback a moment later.
    const answers: ResolvedAddress[][] = [[{ address: '8.8.8.8', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const resolve = async (): Promise<ResolvedAddress[]> => answers.shift() ?? [];
    const pinned = await resolveAndPin('https://rebind.example.com/hooks', { resolve });
    if (!pinned.ok) throw new Error(pinned.problem);
    expect(pinned.addresses).toEqual(['8.8.8.8']);
    expect(await ask(pinned.lookup, 'rebind.example.com', {})).toEqual({ error: null, address: '8.8.8.8', family: 4 });
    expect(await ask(pinned.lookup, 'rebind.example.com', { all: true })).toMatchObject({
      address: [{ address: '8.8.8.8', family: 4 }],
    });
  });

  it('gives the problem, and no lookup, when the URL is refused', async () => {
    const resolve = async (): Promise<ResolvedAddress[]> => [{ address: '10.0.0.1', family: 4 }];
    expect(await resolveAndPin('https://internal.example.com/', { resolve })).toEqual({
      ok: false,
      problem:
        'webhook URL must reach only public addresses: internal.example.com resolves to 10.0.0.1, and 10.0.0.1 is a private address (10.0.0.0/8)',
    });
  });
});
