import { CustomerType, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { HttpError } from '../../http/errors.js';
import { queryOf } from '../../floor/pages/page-query.js';
import { parseCustomerListQuery } from './list-query.js';

const FIRST_CURSOR_PAGE = { cursor: '', perPage: 0 };
const parse = (query: string) => parseCustomerListQuery(new URLSearchParams(query));

/** The 422 a query is refused with, or a failure when it is accepted. */
function refusal(query: string): HttpError {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error(`?${query} was accepted`);
}

describe('GET /customer query (seed 4.4, decisions 0008, 0018)', () => {
  it('without parameters lists everything, unpaginated', () => {
    expect(parse('')).toEqual({ filters: [], paginate: false, page: FIRST_CURSOR_PAGE });
  });

  it('keeps every filter as given, in order, decoded; the enum ones also as their proto values', () => {
    expect(
      parse('type=business&email=a%2Bb%40x.com&registration_number=RC+12&verification_status=PENDING&id_number=7'),
    ).toEqual({
      filters: [
        ['type', 'business'],
        ['email', 'a+b@x.com'],
        ['registration_number', 'RC 12'],
        ['verification_status', 'PENDING'],
        ['id_number', '7'],
      ],
      verificationStatus: VerificationStatus.PENDING,
      type: CustomerType.BUSINESS,
      paginate: false,
      page: FIRST_CURSOR_PAGE,
    });
  });

  it('refuses a verification_status or type outside its enum, naming each (decision 0025)', () => {
    expect(refusal('verification_status=DONE&type=robot').errors).toEqual({
      verification_status: ['must be one of PENDING, PROCESSING, VERIFIED, REJECTED'],
      type: ['must be one of individual, business'],
    });
  });

  it.each([
    ['paginate=true', true],
    ['paginate=1', true],
    ['paginate=false', false],
    ['paginate=0', false],
  ])('%s', (query, paginate) => {
    expect(parse(query).paginate).toBe(paginate);
  });

  it('reads page as a whole number from 1 to 100 (a numbered page), else the cursor page asked for', () => {
    expect(parse('paginate=true&page=3').page).toEqual({ page: 3 });
    expect(parse('paginate=true&page=100').page).toEqual({ page: 100 });
    expect(parse('paginate=true&cursor=abc&per_page=50').page).toEqual({ cursor: 'abc', perPage: 50 });
    expect(parse('paginate=true').page).toEqual(FIRST_CURSOR_PAGE);
    // Laravel ignores page without pagination; so do we.
    expect(parse('page=2')).toMatchObject({ paginate: false, page: { page: 2 } });
  });

  it.each([
    ['an unknown parameter', 'status=PENDING', 'status', /is not a recognised query parameter; use email, id_number/],
    ['a near-miss spelling', 'verification-status=PENDING', 'verification-status', /not a recognised/],
    ['a PHP-style array', 'type[]=business', 'type[]', /not a recognised/],
    ['a repeated filter', 'type=business&type=individual', 'type', /^must be given once$/],
    ['a repeated page', 'paginate=true&page=1&page=2', 'page', /^must be given once$/],
    ['paginate=yes', 'paginate=yes', 'paginate', /must be true, false, 1 or 0, got "yes"/],
    ['paginate=TRUE', 'paginate=TRUE', 'paginate', /must be true, false, 1 or 0/],
    ['an empty paginate', 'paginate=', 'paginate', /must be true, false, 1 or 0, got ""/],
    ['page=0', 'paginate=true&page=0', 'page', /must be a whole number from 1 to 100, got "0"/],
    ['page=101', 'paginate=true&page=101', 'page', /got "101"; read further with cursor pages/],
    ['page with a cursor', 'paginate=true&page=2&cursor=abc', 'page', /^cannot be combined with cursor$/],
    ['page with per_page', 'paginate=true&page=2&per_page=50', 'per_page', /a numbered page holds 15/],
    ['per_page=0', 'paginate=true&per_page=0', 'per_page', /from 1 to 100, got "0"/],
    ['per_page=101', 'paginate=true&per_page=101', 'per_page', /from 1 to 100, got "101"/],
    ['an empty cursor', 'paginate=true&cursor=', 'cursor', /must be meta.next_cursor or meta.prev_cursor/],
    ['a cursor without paginate', 'cursor=abc', 'cursor', /^applies only with paginate=true$/],
    ['per_page without paginate', 'per_page=20', 'per_page', /^applies only with paginate=true$/],
    ['page=-1', 'paginate=true&page=-1', 'page', /got "-1"/],
    ['page=1.5', 'paginate=true&page=1.5', 'page', /got "1.5"/],
    ['page=01', 'paginate=true&page=01', 'page', /got "01"/],
    ['page=abc', 'paginate=true&page=abc', 'page', /got "abc"/],
    ['an empty page', 'paginate=true&page=', 'page', /got ""/],
    ['a page past uint32', 'paginate=true&page=4294967296', 'page', /got "4294967296"/],
    ['a long cursor', `paginate=true&cursor=${'a'.repeat(1025)}`, 'cursor', /must be meta.next_cursor/],
    ['__proto__', '__proto__=x', '__proto__', /not a recognised/],
  ])('refuses %s with 422 naming the parameter', (_name, query, parameter, problem) => {
    const error = refusal(query);
    expect(error).toMatchObject({ httpStatus: 422, code: 'VALIDATION_FAILED' });
    expect(Object.keys(error.errors ?? {})).toEqual([parameter]);
    expect(Object.getOwnPropertyDescriptor(error.errors, parameter)?.value?.[0]).toMatch(problem);
    expect(error.message).toMatch(new RegExp(`^${parameter.replace(/[[\]]/g, '\\$&')} `));
  });

  it('reports every problem of the query at once', () => {
    const error = refusal('paginate=maybe&page=zero&sort=name&email=a@x.com&email=b@x.com');
    expect(error.errors).toEqual({
      paginate: ['must be true, false, 1 or 0, got "maybe"'],
      page: ['must be a whole number from 1 to 100, got "zero"; read further with cursor pages (leave page out)'],
      sort: [
        'is not a recognised query parameter; use email, id_number, registration_number, verification_status, type, paginate, cursor, per_page, page',
      ],
      email: ['must be given once'],
    });
  });

  it('reads the query of the URL as given, repeated parameters kept', () => {
    expect([...queryOf('/api/external/customer?type=business&type=individual&paginate=1')]).toEqual([
      ['type', 'business'],
      ['type', 'individual'],
      ['paginate', '1'],
    ]);
  });
});
