import type { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import type { ClientOf } from '@corridor/grpc';
import { Router } from 'express';
import { structOfBody } from '../public/body.js';
import { queryOf, readPage, readQuery, refuseProblems, type QueryProblems } from '../public/pages/page-query.js';
import { itemRange } from '../public/pages/numbered-page.js';
import { adminCustomerJson, auditEntryJson, present } from '../public/customers/render.js';

const QUEUE_PARAMETERS = ['verification_status', 'business_id', 'page'];

/**
 * The back office's customer review (decision 0008 "Review"): the queue, one customer of any
 * business, a review with or without a verdict, the audit trail. The calls carry no business-id:
 * Admin* methods are not scoped to a business.
 */
export function customersRouter(customer: ClientOf<typeof CustomerService>): Router {
  const router = Router();

  router.get('/admin/customers', async (req, res) => {
    const problems: QueryProblems = new Map();
    const values = readQuery(queryOf(req.originalUrl), QUEUE_PARAMETERS, problems);
    const page = readPage(values, problems);
    refuseProblems(problems);
    const answer = await customer.adminListCustomers(
      { verificationStatus: values.get('verification_status'), businessId: values.get('business_id'), page: page ?? 1 },
      { metadata: res.locals.grpcMetadata },
    );
    const position = present(answer.page, 'page');
    res.json({
      data: answer.customers.map(adminCustomerJson),
      meta: {
        current_page: position.currentPage,
        ...itemRange(answer.customers.length, position.currentPage, position.perPage),
        last_page: Math.max(position.lastPage, 1),
        per_page: position.perPage,
        total: Number(position.total),
        total_capped: position.totalCapped,
      },
    });
  });

  router.get('/admin/customers/:id', async (req, res) => {
    const answer = await customer.adminGetCustomer(
      { customerId: req.params.id },
      { metadata: res.locals.grpcMetadata },
    );
    res.json(adminCustomerJson(present(answer.customer, 'customer')));
  });

  router.post('/admin/customers/:id/review', async (req, res) => {
    const answer = await customer.adminReviewCustomer(
      { customerId: req.params.id, body: structOfBody(req.body) },
      { metadata: res.locals.grpcMetadata },
    );
    res.json(adminCustomerJson(present(answer.customer, 'customer')));
  });

  router.get('/admin/customers/:id/audit', async (req, res) => {
    const answer = await customer.adminListAuditEntries(
      { customerId: req.params.id },
      { metadata: res.locals.grpcMetadata },
    );
    res.json({ data: answer.entries.map(auditEntryJson) });
  });

  return router;
}
