import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { startFakeGrpcService, type Answer } from '@corridor/testing';
import { businessCustomer, fileUpload } from './customer.fixtures.js';

export type { Answer, ReceivedCall } from '@corridor/testing';

/** customer-kyb answering canned customers: every method a business customer unless set below. */
export function startFakeCustomerService() {
  const customer = () => ({ customer: businessCustomer() });
  const defaults: Record<string, Answer> = {
    listCustomers: () => ({ customers: [businessCustomer()] }),
    adminListCustomers: () => ({
      customers: [businessCustomer()],
      page: { currentPage: 1, perPage: 15, lastPage: 1, total: 1n },
    }),
    adminListAuditEntries: () => ({ entries: [] }),
    createOwnerFileUpload: () => ({ upload: fileUpload() }),
    createDocumentUpload: () => ({ upload: fileUpload() }),
    createFileUpload: () => ({ upload: fileUpload() }),
    attachOwnerFile: () => ({ owner: businessCustomer().owners[0] }),
    registerDocument: () => ({ document: businessCustomer().documents[0] }),
    replaceDocument: () => ({ document: businessCustomer().documents[0] }),
  };
  return startFakeGrpcService(CustomerService, (method) => defaults[method] ?? customer);
}
