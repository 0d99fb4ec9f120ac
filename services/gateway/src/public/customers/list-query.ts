import {
  CustomerTypeSchema,
  VerificationStatusSchema,
  type CustomerType,
  type VerificationStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  PAGE_PARAMETERS,
  readPageQuery,
  readQuery,
  refuseProblems,
  type PageQuery,
  type QueryProblems,
} from '../../floor/pages/page-query.js';
import { readWordParameter } from './vocabulary.js';

const PAGINATE_VALUES = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

export const LIST_FILTERS = ['email', 'id_number', 'registration_number', 'verification_status', 'type'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];
const LIST_PARAMETERS: readonly string[] = [...LIST_FILTERS, 'paginate', ...PAGE_PARAMETERS];

export interface CustomerListQuery {
  /** The filters as given, in the order given; customer-kyb checks the text ones' values. */
  filters: [ListFilter, string][];
  /** The enum filters as their proto values (a word outside its enum: 422 naming it). */
  verificationStatus?: VerificationStatus;
  type?: CustomerType;
  paginate: boolean;
  /** With paginate: the cursor page, or the numbered page (decision 0018). */
  page: PageQuery;
}

const isFilter = (entry: [string, string]): entry is [ListFilter, string] =>
  (LIST_FILTERS as readonly string[]).includes(entry[0]);

/**
 * GET /customer's query (seed 4.4, decisions 0008 and 0018). `page` without paginate is accepted
 * and has no effect, as in Laravel; a cursor or per_page without it would silently list the
 * newest 500 instead of a page, so they are refused.
 */
export function parseCustomerListQuery(params: URLSearchParams): CustomerListQuery {
  const problems: QueryProblems = new Map();
  const values = readQuery(params, LIST_PARAMETERS, problems);
  let paginate = false;
  const given = values.get('paginate');
  if (given !== undefined) {
    const parsed = PAGINATE_VALUES.get(given);
    if (parsed === undefined) {
      if (!problems.has('paginate'))
        problems.set('paginate', [`must be true, false, 1 or 0, got ${JSON.stringify(given)}`]);
    } else {
      paginate = parsed;
    }
  }
  const verificationStatus = readWordParameter(values, 'verification_status', VerificationStatusSchema, problems);
  const type = readWordParameter(values, 'type', CustomerTypeSchema, problems);
  const page = readPageQuery(values, problems);
  for (const name of ['cursor', 'per_page']) {
    if (!paginate && values.has(name) && !problems.has(name)) problems.set(name, ['applies only with paginate=true']);
  }
  refuseProblems(problems);
  return { filters: [...values].filter(isFilter), verificationStatus, type, paginate, page };
}
