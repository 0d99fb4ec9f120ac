import { pageWindow, paginatedEnvelope, type ListLocation } from './numbered-page.js';

const PATH = 'https://api.corridor.test/api/external/customer';
const location: ListLocation = { path: PATH, query: [['paginate', 'true']] };
const items = (count: number) => Array.from({ length: count }, (_, i) => ({ n: i + 1 }));
const url = (page: number) => `${PATH}?paginate=true&page=${page}`;

describe("page=N: Laravel's resource-collection envelope (decisions 0008, 0018)", () => {
  it('the first of three pages: no prev, numbered links, the current one active', () => {
    const envelope = paginatedEnvelope(
      items(15),
      { currentPage: 1, perPage: 15, lastPage: 3, total: 40, totalCapped: false },
      location,
    );
    expect(envelope.links).toEqual({ first: url(1), last: url(3), prev: null, next: url(2) });
    expect(envelope.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      links: [
        { url: null, label: '&laquo; Previous', active: false },
        { url: url(1), label: '1', active: true },
        { url: url(2), label: '2', active: false },
        { url: url(3), label: '3', active: false },
        { url: url(2), label: 'Next &raquo;', active: false },
      ],
      path: PATH,
      per_page: 15,
      to: 15,
      total: 40,
      total_capped: false,
    });
    expect(envelope.data).toHaveLength(15);
    expect(Object.keys(envelope)).toEqual(['data', 'links', 'meta']);
  });

  it('a middle page links both ways', () => {
    const envelope = paginatedEnvelope(
      items(15),
      { currentPage: 2, perPage: 15, lastPage: 3, total: 40, totalCapped: false },
      location,
    );
    expect(envelope.links).toEqual({ first: url(1), last: url(3), prev: url(1), next: url(3) });
    expect(envelope.meta).toMatchObject({ current_page: 2, from: 16, to: 30 });
    expect(envelope.meta.links.filter((link) => link.active)).toEqual([{ url: url(2), label: '2', active: true }]);
    expect(envelope.meta.links[0]).toEqual({ url: url(1), label: '&laquo; Previous', active: false });
    expect(envelope.meta.links.at(-1)).toEqual({ url: url(3), label: 'Next &raquo;', active: false });
  });

  it('the last page is partial and has no next', () => {
    const envelope = paginatedEnvelope(
      items(10),
      { currentPage: 3, perPage: 15, lastPage: 3, total: 40, totalCapped: false },
      location,
    );
    expect(envelope.links).toEqual({ first: url(1), last: url(3), prev: url(2), next: null });
    expect(envelope.meta).toMatchObject({ from: 31, to: 40, total: 40 });
    expect(envelope.meta.links.at(-1)).toEqual({ url: null, label: 'Next &raquo;', active: false });
  });

  it('nothing matches: one empty page, from and to null', () => {
    const envelope = paginatedEnvelope(
      [],
      { currentPage: 1, perPage: 15, lastPage: 0, total: 0, totalCapped: false },
      location,
    );
    expect(envelope).toEqual({
      data: [],
      links: { first: url(1), last: url(1), prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [
          { url: null, label: '&laquo; Previous', active: false },
          { url: url(1), label: '1', active: true },
          { url: null, label: 'Next &raquo;', active: false },
        ],
        path: PATH,
        per_page: 15,
        to: null,
        total: 0,
        total_capped: false,
      },
    });
  });

  it('a page past the end is empty, points back, and marks no page active', () => {
    const envelope = paginatedEnvelope(
      [],
      { currentPage: 9, perPage: 15, lastPage: 2, total: 20, totalCapped: false },
      location,
    );
    expect(envelope.links).toEqual({ first: url(1), last: url(2), prev: url(8), next: null });
    expect(envelope.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 2 });
    expect(envelope.meta.links.some((link) => link.active)).toBe(false);
  });

  it('keeps the filters in every link, as given, with its own page last (RFC 3986 encoding)', () => {
    const filtered: ListLocation = {
      path: PATH,
      query: [
        ['type', 'business'],
        ['registration_number', 'RC 12/3'],
        ['email', "o'neil+a@x.com"],
        ['paginate', '1'],
      ],
    };
    const envelope = paginatedEnvelope(
      items(15),
      { currentPage: 2, perPage: 15, lastPage: 3, total: 31, totalCapped: false },
      filtered,
    );
    const query = 'type=business&registration_number=RC%2012%2F3&email=o%27neil%2Ba%40x.com&paginate=1';
    expect(envelope.links).toEqual({
      first: `${PATH}?${query}&page=1`,
      last: `${PATH}?${query}&page=3`,
      prev: `${PATH}?${query}&page=1`,
      next: `${PATH}?${query}&page=3`,
    });
    expect(envelope.meta.path).toBe(PATH);
    for (const link of envelope.meta.links)
      if (link.url) expect(link.url.startsWith(`${PATH}?${query}&page=`)).toBe(true);
    expect(new URL(envelope.links.first).searchParams.get('email')).toBe("o'neil+a@x.com");
  });

  describe('the page window of meta.links (Laravel UrlWindow, 3 on each side)', () => {
    it('lists every page below 14', () => {
      expect(pageWindow(5, 13)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      expect(pageWindow(1, 1)).toEqual([1]);
    });
    it('near the start: the first 10, a gap, the last 2', () => {
      expect(pageWindow(7, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 19, 20]);
    });
    it('near the end: the first 2, a gap, the last 10', () => {
      expect(pageWindow(14, 20)).toEqual([1, 2, null, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    });
    it('in the middle: both ends, and 3 either side of the current page', () => {
      expect(pageWindow(10, 20)).toEqual([1, 2, null, 7, 8, 9, 10, 11, 12, 13, null, 19, 20]);
    });
    it('renders a gap as "..." without a URL', () => {
      const envelope = paginatedEnvelope(
        items(15),
        { currentPage: 10, perPage: 15, lastPage: 20, total: 300, totalCapped: false },
        location,
      );
      expect(envelope.meta.links.filter((link) => link.label === '...')).toEqual([
        { url: null, label: '...', active: false },
        { url: null, label: '...', active: false },
      ]);
      expect(envelope.meta.links).toHaveLength(13 + 2);
    });
  });
});
