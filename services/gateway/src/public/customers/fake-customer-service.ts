import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import {
  createClient,
  registration,
  startGrpcServer,
  type CallerContext,
  type ClientOf,
  type RunningGrpcServer,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { businessCustomer, fileUpload } from './customer.fixtures.js';

/** One call customer-kyb received: the method, the decoded request and the caller metadata. */
export interface ReceivedCall {
  method: string;
  request: Record<string, unknown>;
  caller: CallerContext;
}

/** A method's answer, or a DomainError to throw; replaces the default answer of that method. */
export type Answer = (request: Record<string, unknown>) => unknown;

/**
 * customer-kyb as a real gRPC server on loopback answering canned messages, so the specs cross the
 * same wire (Struct, bigint, Timestamp) as production without a database.
 */
export async function startFakeCustomerService() {
  const calls: ReceivedCall[] = [];
  const answers = new Map<string, Answer>();
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
  const implementation = Object.fromEntries(
    CustomerService.methods.map((method) => [
      method.localName,
      async (request: Record<string, unknown>, context: { caller: CallerContext }) => {
        calls.push({ method: method.localName, request, caller: context.caller });
        const answer = answers.get(method.localName) ?? defaults[method.localName] ?? customer;
        return answer(request);
      },
    ]),
  );
  const server: RunningGrpcServer = await startGrpcServer({
    address: '127.0.0.1:0',
    services: [registration(CustomerService, implementation as never)],
    logger: createLogger('test', { level: 'silent' }),
  });
  const client: ClientOf<typeof CustomerService> = createClient(CustomerService, {
    address: `127.0.0.1:${server.port}`,
  });
  return {
    client,
    calls,
    answers,
    async stop() {
      client.close();
      await server.shutdown(1_000);
    },
  };
}
