import type { Command } from 'commander';
import { segment, type AdminApi } from '../admin-api.js';
import type { CommandContext } from '../command-context.js';
import { isRecord } from '../http.js';
import { collectRejection, parsePage, parseVerdict, type Rejection, type Verdict } from '../options.js';

interface QueueOptions {
  status: string;
  business?: string;
  page?: number;
}

interface ReviewOptions {
  verdict: Verdict;
  approveAll?: boolean;
  rejectOwner?: Rejection[];
  rejectDocument?: Rejection[];
}

interface ChildReview {
  id: string;
  status: 'APPROVED' | 'REJECTED';
  admin_comments?: string[];
}

/** Each rejected id once, with all its comments, in the order given. */
function rejected(rejections: Rejection[] = []): ChildReview[] {
  const comments = new Map<string, string[]>();
  for (const { id, comment } of rejections) comments.set(id, [...(comments.get(id) ?? []), comment]);
  return [...comments].map(([id, admin_comments]) => ({ id, status: 'REJECTED', admin_comments }));
}

/** The ids of a customer's owners or documents still awaiting review (PROCESSING). */
function underReview(customer: unknown, key: 'owners' | 'documents'): string[] {
  const children = isRecord(customer) && Array.isArray(customer[key]) ? customer[key] : [];
  return children
    .filter(isRecord)
    .flatMap((child) => (child.status === 'PROCESSING' && typeof child.id === 'string' ? [child.id] : []));
}

/**
 * The review body: the rejections given, plus with --approve-all an approval of every owner and
 * document still PROCESSING that was not rejected, so one call can end with VERIFIED.
 */
async function reviewBody(api: AdminApi, id: string, options: ReviewOptions) {
  const owners = rejected(options.rejectOwner);
  const documents = rejected(options.rejectDocument);
  if (options.approveAll) {
    const customer = await api.call('GET', `/admin/customers/${segment(id)}`);
    const approve = (ids: string[], judged: ChildReview[]) =>
      ids
        .filter((childId) => !judged.some((child) => child.id === childId))
        .map((childId): ChildReview => ({ id: childId, status: 'APPROVED' }));
    owners.unshift(...approve(underReview(customer, 'owners'), owners));
    documents.unshift(...approve(underReview(customer, 'documents'), documents));
  }
  return {
    ...(owners.length > 0 ? { owners } : {}),
    ...(documents.length > 0 ? { documents } : {}),
    verdict: options.verdict,
  };
}

/** `corridor admin customers queue|show|review|audit` (decision 0008 "Review"). */
export function registerCustomerCommands(admin: Command, context: CommandContext): void {
  const customers = admin.command('customers').description('review platforms’ customers (KYC/KYB)');

  customers
    .command('queue')
    .description('customers awaiting review, oldest submission first, 15 a page (GET /admin/customers)')
    .option('--status <status>', 'verification_status to list; "all" for every status', 'PROCESSING')
    .option('--business <id>', 'only the customers of this platform business')
    .option('--page <n>', 'page number', parsePage)
    .action(async (options: QueueOptions, command: Command) => {
      const query = new URLSearchParams();
      if (options.status !== 'all') query.set('verification_status', options.status);
      if (options.business) query.set('business_id', options.business);
      if (options.page) query.set('page', String(options.page));
      const { api } = await context.connect(command);
      const search = query.size > 0 ? `?${query.toString()}` : '';
      context.print(await api.call('GET', `/admin/customers${search}`));
    });

  customers
    .command('show')
    .description('read a customer of any business, with its owners and documents (GET /admin/customers/{id})')
    .argument('<id>', 'customer id')
    .action(async (id: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('GET', `/admin/customers/${segment(id)}`));
    });

  customers
    .command('review')
    .description('record a review and a verdict (POST /admin/customers/{id}/review); the customer must be PROCESSING')
    .argument('<id>', 'customer id')
    .requiredOption('--verdict <VERIFIED|REJECTED>', 'the customer’s new status', parseVerdict)
    .option('--approve-all', 'approve every owner and document still PROCESSING (read from the customer first)')
    .option(
      '--reject-owner <id=comment>',
      'reject an owner with a comment for the platform (repeatable)',
      collectRejection,
    )
    .option(
      '--reject-document <id=comment>',
      'reject a document with a comment for the platform (repeatable)',
      collectRejection,
    )
    .action(async (id: string, options: ReviewOptions, command: Command) => {
      const { api } = await context.connect(command);
      const body = await reviewBody(api, id, options);
      context.print(await api.call('POST', `/admin/customers/${segment(id)}/review`, body));
    });

  customers
    .command('audit')
    .description('a customer’s audit trail, oldest first (GET /admin/customers/{id}/audit)')
    .argument('<id>', 'customer id')
    .action(async (id: string, _options: object, command: Command) => {
      const { api } = await context.connect(command);
      context.print(await api.call('GET', `/admin/customers/${segment(id)}/audit`));
    });
}
