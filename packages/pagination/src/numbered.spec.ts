import { MAX_PAGE_NUMBER, TOTAL_CAP, cappedCountSql, numberedPage, numberedPageSql, numberedRead } from './numbered.js';

describe('numbered pages', () => {
  it('reads pages 1 to MAX_PAGE_NUMBER, 15 a page, and refuses deeper naming page', () => {
    expect(numberedRead(0)).toEqual({ page: 1, perPage: 15, offset: 0 });
    expect(numberedRead(MAX_PAGE_NUMBER)).toEqual({ page: 100, perPage: 15, offset: 1485 });
    expect(() => numberedRead(MAX_PAGE_NUMBER + 1)).toThrow(/page must be at most 100/);
  });

  it('says when the count stopped at its cap, and never links past the deepest page', () => {
    expect(numberedPage(numberedRead(1), 0)).toEqual({
      currentPage: 1,
      perPage: 15,
      lastPage: 1,
      total: 0n,
      totalCapped: false,
    });
    expect(numberedPage(numberedRead(2), 31)).toMatchObject({ lastPage: 3, total: 31n, totalCapped: false });
    expect(numberedPage(numberedRead(1), TOTAL_CAP)).toMatchObject({ lastPage: 100, totalCapped: false });
    expect(numberedPage(numberedRead(1), TOTAL_CAP + 1)).toMatchObject({
      lastPage: 100,
      total: BigInt(TOTAL_CAP),
      totalCapped: true,
    });
  });

  it('counts at most one row past the cap', () => {
    expect(cappedCountSql('customer', 'business_id = ?')).toBe(
      'select count(*)::int as counted from (select 1 from customer where business_id = ? limit 10001) capped',
    );
  });

  it('skips rows by id only, then reads the page whole', () => {
    expect(numberedPageSql('customer', 'business_id = ?', 'created_at desc, id desc')).toBe(
      'select * from customer where id in (select id from customer where business_id = ? order by created_at desc, id desc limit ? offset ?) order by created_at desc, id desc',
    );
  });
});
