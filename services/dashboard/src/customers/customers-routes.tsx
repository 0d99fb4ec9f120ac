import { notFound, DomainError, Status } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { Router } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { sendPage } from '../layout/render.js';
import { memberCall, memberOf, requireMember } from '../members/member-access.js';
import { customerName, CUSTOMER_TYPES, VERIFICATION_STATUSES } from './customer-words.js';
import { CustomerDetail, CustomerList } from './customers-pages.js';
import { ListQuery } from './list-query.js';

const LIST_PARAMETERS = ['email', 'id_number', 'registration_number', 'verification_status', 'type', 'cursor'];
/** The API's limits on the fields filtered by (an email is at most 254 characters, other text 255). */
const TEXT_LIMIT = 255;

/** The gRPC error customer-kyb answers for a filter or cursor it refuses: the page names it (422). */
const refusedInput = (error: unknown): error is DomainError =>
  error instanceof DomainError && error.status === Status.INVALID_ARGUMENT;

/**
 * /customers: the platform's customers over customer-kyb's CustomerService, read-only (issue 30
 * part 3). Every call carries the member's business in caller metadata, so another business's
 * customer is NOT_FOUND there and 404 here.
 */
export function customersRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { customer: customers } = deps.clients;

  router.get('/customers', requireMember('read'), async (req, res) => {
    const query = new ListQuery(req, LIST_PARAMETERS);
    const request = {
      email: query.text('email', TEXT_LIMIT),
      idNumber: query.text('id_number', TEXT_LIMIT),
      registrationNumber: query.text('registration_number', TEXT_LIMIT),
      verificationStatus: query.word('verification_status', VERIFICATION_STATUSES),
      type: query.word('type', CUSTOMER_TYPES),
    };
    const filters = Object.fromEntries(query.filters());
    const refuse = (error: string) =>
      sendPage(res, 422, 'Customers', <CustomerList filters={filters} problems={query.problems} error={error} />);
    if (query.problem) return refuse(query.problem);
    let answer;
    try {
      // Cursor pages as the API's paginate=true; limit 0 is the API's page size (seed 4.4: 15).
      answer = await customers.listCustomers(
        { ...request, paginate: true, cursorPage: { cursor: query.values.get('cursor') ?? '', limit: 0 } },
        memberCall(res),
      );
    } catch (error) {
      if (refusedInput(error)) return refuse(error.message);
      throw error;
    }
    sendPage(
      res,
      200,
      'Customers',
      <CustomerList
        customers={answer.customers}
        filters={filters}
        problems={query.problems}
        nextCursor={answer.cursorPage?.nextCursor}
        previousCursor={answer.cursorPage?.previousCursor}
      />,
    );
  });

  // Before /customers/:customerId, which "go" would otherwise reach (and 404, not being a uuid).
  router.get('/customers/go', requireMember('read'), (req, res) => {
    const value: unknown = req.query.customer_id;
    const id = typeof value === 'string' ? value.trim() : '';
    if (isUuid(id)) return res.redirect(303, `/customers/${id.toLowerCase()}`);
    sendPage(
      res,
      422,
      'Customers',
      <CustomerList
        filters={{}}
        problems={new Map()}
        error="A customer id is a uuid, such as 6c1d7a9e-0000-4000-8000-00000000c001."
        goTo={{ value: id, error: id === '' ? 'Enter a customer id.' : 'This is not a customer id (a uuid).' }}
      />,
    );
  });

  router.get('/customers/:customerId', requireMember('read'), async (req, res) => {
    const customerId = String(req.params.customerId);
    // Not a uuid names no customer: 404 without asking customer-kyb.
    if (!isUuid(customerId)) throw notFound('CUSTOMER_NOT_FOUND', 'no such customer');
    const { customer } = await customers.getCustomer({ customerId: customerId.toLowerCase() }, memberCall(res));
    if (!customer) throw new Error('customer-kyb answered no customer');
    // customer-kyb scopes by the caller's business already; a customer of another one is never shown.
    if (customer.businessId !== memberOf(res).businessId) throw notFound('CUSTOMER_NOT_FOUND', 'no such customer');
    sendPage(res, 200, customerName(customer), <CustomerDetail customer={customer} />);
  });

  return router;
}
