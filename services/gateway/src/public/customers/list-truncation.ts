import type { HeadersObject } from 'openapi3-ts/oas31';
import { listUrl } from '../../floor/pages/numbered-page.js';

/**
 * The unpaginated customer list is capped (decision 0008); its body is the seed's `{message, data}`
 * (seed 4.4), so a cut is told in headers: an RFC 8288 `next` link to the paginated list and a flag.
 */

export const TRUNCATED_HEADER = 'x-corridor-truncated';

/**
 * The headers of a cut list: `Link` to the same list, same filters in the same order, with
 * paginate=true from its first page (`page` has no effect without paginate, so it is dropped).
 */
export function truncationHeaders(path: string, params: URLSearchParams): Record<string, string> {
  const filters = [...params].filter(([name]) => name !== 'paginate' && name !== 'page');
  const next = listUrl(path, [...filters, ['paginate', 'true']]);
  return { Link: `<${next}>; rel="next"`, [TRUNCATED_HEADER]: 'true' };
}

/** The same headers in the OpenAPI document: sent only when the list was cut. */
export const truncationResponseHeaders: HeadersObject = {
  Link: {
    description:
      'Only when the list was cut at 500: `<URL>; rel="next"` (RFC 8288), the same list with the same filters and paginate=true, which reaches every match',
    schema: { type: 'string' },
  },
  [TRUNCATED_HEADER]: {
    description: 'Only when more customers match than the 500 returned; absent otherwise',
    schema: { type: 'string', enum: ['true'] },
  },
};
