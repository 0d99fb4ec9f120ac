import {
  businessBody,
  expectInvalid,
  individualBody,
  jsonOf,
  registrationNumber,
  unique,
  type CustomerCaller,
  type CustomerJson,
} from '../support/customers.js';
import { Platform } from '../support/platform.js';

/** page=N: Laravel's length-aware envelope, its total counted up to 10,000 (decision 0018). */
interface Page {
  data: CustomerJson[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: { url: string | null; label: string; active: boolean }[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
    total_capped: boolean;
  };
}

/** paginate=true without page: Laravel's cursor envelope (decision 0018). */
interface CursorPage {
  data: CustomerJson[];
  links: { first: null; last: null; prev: string | null; next: string | null };
  meta: { path: string; per_page: number; next_cursor: string | null; prev_cursor: string | null };
}

/**
 * seed 4.4: GET /customer with exact-match filters scoped to the caller's business; paginate=true
 * gives a {data, links, meta} envelope, 15 per page, newest first: cursor pages, or numbered pages
 * with page=N (decision 0018); without it the unchanged default {message, data} (seed 9).
 */
describe('customers: listing (seed 4.4, seed 8 page size, seed 9)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;
  let other: CustomerCaller;
  /** Every customer of the caller, newest first. */
  const newestFirst: CustomerJson[] = [];
  const sharedNumber = registrationNumber();
  const sharedEmail = `shared.${unique()}@example.com`;
  let processing: CustomerJson[] = [];
  let individuals: CustomerJson[] = [];

  beforeAll(async () => {
    await platform.start();
    [caller, other] = await Promise.all([
      api.caller({ kybMinimalAllowed: true }),
      api.caller({ kybMinimalAllowed: true }),
    ]);
    const created: CustomerJson[] = [];
    // Created one after another, so their creation order is their age.
    for (let index = 0; index < 14; index += 1) {
      created.push(
        await api.createCustomer(
          caller.token,
          businessBody(index === 0 ? { registration_number: sharedNumber, email: sharedEmail } : {}),
        ),
      );
    }
    for (let index = 0; index < 2; index += 1) {
      const ready = await api.minimalReadyToSubmit(caller);
      created.push(await api.submit(caller.token, ready.id));
    }
    individuals = [
      await api.createCustomer(
        caller.token,
        individualBody({ email: sharedEmail, id_type: 'passport', id_number: 'P-111' }),
      ),
      await api.createCustomer(caller.token, individualBody({ id_type: 'id_card', id_number: 'P-222' })),
    ];
    created.push(...individuals);
    processing = created.filter((customer) => customer.verification_status === 'PROCESSING');
    newestFirst.push(...created.reverse());
    // The other platform has a customer with the same number and email: never in the caller's lists.
    await api.createCustomer(other.token, businessBody({ registration_number: sharedNumber, email: sharedEmail }));
  });
  afterAll(() => platform.stop());

  const list = async (queryString = '') =>
    jsonOf<{ message: string; data: CustomerJson[] }>(
      await api.call(caller.token, 'GET', `/customer${queryString}`),
      200,
      `list ${queryString}`,
    );
  const page = async (queryString: string) =>
    jsonOf<Page>(await api.call(caller.token, 'GET', `/customer${queryString}`), 200, `page ${queryString}`);
  const cursorPage = async (queryString: string) =>
    jsonOf<CursorPage>(await api.call(caller.token, 'GET', `/customer${queryString}`), 200, `page ${queryString}`);
  const ids = (customers: { id: string }[]) => customers.map((customer) => customer.id);

  it('seed 4.4, seed 9: without paginate the answer is {message, data} with every match, newest first (not capped at 15)', async () => {
    const body = await list();
    expect(Object.keys(body).sort()).toEqual(['data', 'message']);
    expect(body.message).toEqual(expect.any(String));
    expect(ids(body.data)).toEqual(ids(newestFirst));
    expect(body.data).toHaveLength(18);
    // The entries are whole customers, as GET /customer/{id} shows them.
    expect(body.data[0]).toEqual(await api.getCustomer(caller.token, newestFirst[0]!.id));
  });

  it('seed 4.4, seed 8: paginate=true gives {data, links, meta}, 15 per page, newest first, in cursor pages', async () => {
    const first = await cursorPage('?paginate=true');
    expect(Object.keys(first).sort()).toEqual(['data', 'links', 'meta']);
    expect(ids(first.data)).toEqual(ids(newestFirst.slice(0, 15)));
    expect(first.meta).toMatchObject({
      per_page: 15,
      prev_cursor: null,
      path: `${platform.publicUrl}/api/external/customer`,
    });
    expect(first.links).toMatchObject({ first: null, last: null, prev: null });
    const next = new URL(String(first.links.next));
    expect(next.searchParams.get('paginate')).toBe('true');
    expect(next.searchParams.get('cursor')).toBe(first.meta.next_cursor);

    const second = await cursorPage(next.search);
    expect(ids(second.data)).toEqual(ids(newestFirst.slice(15)));
    expect(second.links.next).toBeNull();
    expect(second.meta.next_cursor).toBeNull();
    const back = new URL(String(second.links.prev));
    expect(ids((await cursorPage(back.search)).data)).toEqual(ids(newestFirst.slice(0, 15)));

    // per_page sizes a cursor page, and the next page starts where it ended.
    const small = await cursorPage('?paginate=true&per_page=5');
    expect(ids(small.data)).toEqual(ids(newestFirst.slice(0, 5)));
    const after = await cursorPage(`?paginate=true&per_page=5&cursor=${String(small.meta.next_cursor)}`);
    expect(ids(after.data)).toEqual(ids(newestFirst.slice(5, 10)));
  });

  it('decision 0018: page=N gives the numbered envelope, 15 per page, its total exact under 10,000', async () => {
    const first = await page('?paginate=true&page=1');
    expect(ids(first.data)).toEqual(ids(newestFirst.slice(0, 15)));
    expect(first.meta).toMatchObject({
      current_page: 1,
      from: 1,
      to: 15,
      last_page: 2,
      per_page: 15,
      total: 18,
      total_capped: false,
      path: `${platform.publicUrl}/api/external/customer`,
    });
    expect(first.meta.links).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: '1', active: true }),
        expect.objectContaining({ label: '2', active: false }),
      ]),
    );
    expect(first.links.prev).toBeNull();
    expect(new URL(first.links.first).searchParams.get('page')).toBe('1');
    expect(new URL(first.links.last).searchParams.get('page')).toBe('2');
    expect(new URL(String(first.links.next)).searchParams.get('page')).toBe('2');
    expect(first.links.first.startsWith(`${platform.publicUrl}/api/external/customer?`)).toBe(true);

    const second = await page('?paginate=true&page=2');
    expect(ids(second.data)).toEqual(ids(newestFirst.slice(15)));
    expect(second.meta).toMatchObject({ current_page: 2, from: 16, to: 18, total: 18 });
    expect(second.links.next).toBeNull();
    expect(new URL(String(second.links.prev)).searchParams.get('page')).toBe('1');

    const past = await page('?paginate=true&page=3');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ current_page: 3, from: null, to: null, total: 18 });
  });

  it('seed 4.4: paginate accepts true/false/1/0; paginate=false is the default shape', async () => {
    expect(Object.keys(await list('?paginate=false')).sort()).toEqual(['data', 'message']);
    expect(Object.keys(await list('?paginate=0')).sort()).toEqual(['data', 'message']);
    expect((await cursorPage('?paginate=1')).meta.per_page).toBe(15);
  });

  it('seed 4.4: the registration_number filter is an exact match scoped to the caller’s business', async () => {
    expect(ids((await list(`?registration_number=${sharedNumber}`)).data)).toEqual([newestFirst.at(-1)!.id]);
    expect((await list(`?registration_number=${sharedNumber.slice(0, -1)}`)).data).toEqual([]);
  });

  it('seed 4.4: the email filter is an exact match over both types', async () => {
    expect(ids((await list(`?email=${encodeURIComponent(sharedEmail)}`)).data)).toEqual([
      individuals[0]!.id,
      newestFirst.at(-1)!.id,
    ]);
  });

  it('seed 4.4: the id_number filter', async () => {
    expect(ids((await list('?id_number=P-222')).data)).toEqual([individuals[1]!.id]);
    expect((await list('?id_number=P-2')).data).toEqual([]);
  });

  it('seed 4.4: the verification_status filter', async () => {
    expect(ids((await list('?verification_status=PROCESSING')).data)).toEqual(ids(processing).reverse());
    expect((await list('?verification_status=VERIFIED')).data).toEqual([]);
    expect((await list('?verification_status=PENDING')).data).toHaveLength(16);
  });

  it('seed 4.4: the type filter', async () => {
    expect(ids((await list('?type=individual')).data)).toEqual(ids(individuals).reverse());
    expect((await list('?type=business')).data).toHaveLength(16);
  });

  it('seed 4.4: filters combine (all must match)', async () => {
    expect(ids((await list('?type=business&verification_status=PROCESSING')).data)).toEqual(ids(processing).reverse());
    expect((await list('?type=individual&verification_status=PROCESSING')).data).toEqual([]);
    expect(ids((await list(`?type=business&email=${encodeURIComponent(sharedEmail)}`)).data)).toEqual([
      newestFirst.at(-1)!.id,
    ]);
    expect((await list(`?type=individual&registration_number=${sharedNumber}`)).data).toEqual([]);
  });

  it('seed 4.4: filters apply to the paginated list, and its links keep them', async () => {
    expect((await page('?paginate=true&type=business&page=1')).meta).toMatchObject({ total: 16, last_page: 2 });
    const filtered = await cursorPage('?paginate=true&type=business');
    expect(ids(filtered.data)).toEqual(
      ids(newestFirst.filter((customer) => customer.type === 'business').slice(0, 15)),
    );
    const next = new URL(String(filtered.links.next));
    expect(next.searchParams.get('type')).toBe('business');
    expect(next.searchParams.get('paginate')).toBe('true');
  });

  it('seed 4.4: every list is scoped to the caller’s business', async () => {
    const theirs = await jsonOf<{ data: CustomerJson[] }>(
      await api.call(other.token, 'GET', '/customer'),
      200,
      'other list',
    );
    expect(theirs.data).toHaveLength(1);
    expect(ids(theirs.data)).not.toEqual(expect.arrayContaining([newestFirst[0]!.id]));
    const theirsByNumber = await jsonOf<{ data: CustomerJson[] }>(
      await api.call(other.token, 'GET', `/customer?registration_number=${sharedNumber}`),
      200,
      'other filtered list',
    );
    expect(ids(theirsByNumber.data)).toEqual(ids(theirs.data));
  });

  it('decision 0008: an unknown query parameter, or a value outside an enum, is 422 naming it', async () => {
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?verification_status=APPROVED'), {
      verification_status: /PENDING, PROCESSING, VERIFIED, REJECTED/,
    });
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?type=company'), {
      type: /individual, business|individual or business/,
    });
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?status=PENDING'), {
      status: /not a recognised/,
    });
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?paginate=yes'), { paginate: /true|false/ });
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?paginate=true&page=0'), { page: /1/ });
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?paginate=true&page=101'), { page: /100/ });
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?paginate=true&cursor=not-ours'), {
      cursor: /not a cursor this API returned/,
    });
    await expectInvalid(await api.call(caller.token, 'GET', '/customer?cursor=abc'), { cursor: /paginate=true/ });
    // issue 18: NUL reached PostgreSQL and came back 500; it is refused at the gateway, naming it.
    for (const filter of ['email', 'id_number', 'registration_number']) {
      await expectInvalid(await api.call(caller.token, 'GET', `/customer?${filter}=a%00b`), {
        [filter]: /control characters/,
      });
    }
  });
});
