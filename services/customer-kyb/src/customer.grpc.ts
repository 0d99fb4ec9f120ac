import { create, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import {
  AttachCustomerFilesResponseSchema,
  AttachOwnerFileResponseSchema,
  CreateCustomerResponseSchema,
  CreateDocumentUploadResponseSchema,
  CreateFileUploadResponseSchema,
  CreateOwnerFileUploadResponseSchema,
  CustomerService,
  RegisterDocumentResponseSchema,
  SandboxCreateCustomerResponseSchema,
  SandboxReviewCustomerResponseSchema,
  SubmitCustomerResponseSchema,
  UpdateKycDataResponseSchema,
  UpgradeKybScopeResponseSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import {
  CustomerFilesInputSchema,
  CustomerInputSchema,
  DocumentInputSchema,
  DocumentUploadInputSchema,
  FileUploadInputSchema,
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
  ReviewInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { CustomerTypeSchema, VerificationStatusSchema } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { MikroORM } from '@corridor/db';
import { permissionDenied, registration, type CallContext } from '@corridor/grpc';
import { idempotentWrites } from '@corridor/idempotency';
import type { Actor, CustomerContext } from './context.js';
import { wordOrUndefined } from './customer-input.js';
import { createCustomer } from './customers/create-customer.js';
import {
  adminListCustomers,
  getCustomer,
  listAuditEntries,
  listCustomers,
  type ListPage,
} from './customers/list-customers.js';
import { reviewCustomer } from './customers/review-customer.js';
import { sandboxCreateCustomer } from './customers/sandbox-create.js';
import { sandboxReviewCustomer } from './customers/sandbox-review.js';
import { submitCustomer } from './customers/submit-customer.js';
import { removeOwner, updateCustomer } from './customers/update-customer.js';
import { upgradeKybScope } from './customers/upgrade-kyb-scope.js';
import { createDocumentUpload, registerDocument, replaceDocument } from './documents/kyb-documents.js';
import { attachCustomerFiles, createFileUpload } from './files/individual-files.js';
import { attachOwnerFile, createOwnerFileUpload } from './files/owner-files.js';

/** A request's typed body; none at all is an empty body, every property omitted. */
const bodyOrEmpty = <Desc extends DescMessage>(
  schema: Desc,
  body: MessageShape<Desc> | undefined,
): MessageShape<Desc> => body ?? create(schema);

/** A platform's call: the gateway names the business in metadata; without one nothing is served. */
export function platform({ caller }: CallContext): Actor & { businessId: string } {
  if (!caller.businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  return {
    businessId: caller.businessId,
    name: `credential:${caller.credentialId ?? 'unknown'}`,
    requestId: caller.requestId,
  };
}

/** The back office: every business, audited as "admin". */
const admin = ({ caller }: CallContext): Actor => ({
  businessId: undefined,
  name: 'admin',
  requestId: caller.requestId,
});

/** The gRPC edge of customer-kyb: thin, one fork of the entity manager per call. */
export function customerServiceRegistration({ orm, context }: { orm: MikroORM; context: CustomerContext }) {
  const em = () => orm.em.fork();
  /**
   * A public POST: its Idempotency-Key is claimed in the transaction of the write. Each use case
   * writes through `tx` in a nested em.transactional, a savepoint of that one transaction.
   */
  const idempotent = idempotentWrites(em);

  return registration(CustomerService, {
    async createCustomer(request, call) {
      return idempotent(call, 'CreateCustomer', CreateCustomerResponseSchema, async (tx) => ({
        customer: await createCustomer(tx, context, platform(call), bodyOrEmpty(CustomerInputSchema, request.customer)),
      }));
    },
    async updateCustomer(request, call) {
      const input = {
        customerId: request.customerId,
        body: bodyOrEmpty(CustomerInputSchema, request.customer),
        kycDataOnly: false,
      };
      return { customer: await updateCustomer(em(), context, platform(call), input) };
    },
    async updateKycData(request, call) {
      const input = {
        customerId: request.customerId,
        body: bodyOrEmpty(CustomerInputSchema, request.customer),
        kycDataOnly: true,
      };
      return idempotent(call, 'UpdateKycData', UpdateKycDataResponseSchema, async (tx) => ({
        customer: await updateCustomer(tx, context, platform(call), input),
      }));
    },
    async getCustomer(request, call) {
      return { customer: await getCustomer(em(), platform(call), request.customerId) };
    },
    async listCustomers(request, call) {
      const filters = {
        email: request.email,
        idNumber: request.idNumber,
        registrationNumber: request.registrationNumber,
        verificationStatus: wordOrUndefined(VerificationStatusSchema, request.verificationStatus),
        type: wordOrUndefined(CustomerTypeSchema, request.type),
      };
      const page: ListPage = !request.paginate
        ? { kind: 'unpaginated' }
        : request.page > 0
          ? { kind: 'numbered', page: request.page }
          : { kind: 'cursor', cursor: request.cursorPage?.cursor ?? '', limit: request.cursorPage?.limit ?? 0 };
      return listCustomers(em(), platform(call), filters, page);
    },
    async removeOwner(request, call) {
      const input = { customerId: request.customerId, ownerId: request.ownerId };
      return { customer: await removeOwner(em(), context, platform(call), input) };
    },
    async createOwnerFileUpload(request, call) {
      const input = {
        customerId: request.customerId,
        ownerId: request.ownerId,
        body: bodyOrEmpty(OwnerFileUploadInputSchema, request.upload),
      };
      return idempotent(call, 'CreateOwnerFileUpload', CreateOwnerFileUploadResponseSchema, async (tx) => ({
        upload: await createOwnerFileUpload(tx, context, platform(call), input),
      }));
    },
    async attachOwnerFile(request, call) {
      const input = {
        customerId: request.customerId,
        ownerId: request.ownerId,
        body: bodyOrEmpty(OwnerFileInputSchema, request.file),
      };
      return idempotent(call, 'AttachOwnerFile', AttachOwnerFileResponseSchema, async (tx) => ({
        owner: await attachOwnerFile(tx, context, platform(call), input),
      }));
    },
    async createDocumentUpload(request, call) {
      const input = { customerId: request.customerId, body: bodyOrEmpty(DocumentUploadInputSchema, request.upload) };
      return idempotent(call, 'CreateDocumentUpload', CreateDocumentUploadResponseSchema, async (tx) => ({
        upload: await createDocumentUpload(tx, context, platform(call), input),
      }));
    },
    async registerDocument(request, call) {
      const input = { customerId: request.customerId, body: bodyOrEmpty(DocumentInputSchema, request.document) };
      return idempotent(call, 'RegisterDocument', RegisterDocumentResponseSchema, async (tx) => ({
        document: await registerDocument(tx, context, platform(call), input),
      }));
    },
    async replaceDocument(request, call) {
      const input = {
        customerId: request.customerId,
        documentId: request.documentId,
        body: bodyOrEmpty(DocumentInputSchema, request.document),
      };
      return { document: await replaceDocument(em(), context, platform(call), input) };
    },
    async createFileUpload(request, call) {
      return idempotent(call, 'CreateFileUpload', CreateFileUploadResponseSchema, async (tx) => ({
        upload: await createFileUpload(tx, context, platform(call), {
          body: bodyOrEmpty(FileUploadInputSchema, request.upload),
        }),
      }));
    },
    async attachCustomerFiles(request, call) {
      const input = { customerId: request.customerId, body: bodyOrEmpty(CustomerFilesInputSchema, request.files) };
      return idempotent(call, 'AttachCustomerFiles', AttachCustomerFilesResponseSchema, async (tx) => ({
        customer: await attachCustomerFiles(tx, context, platform(call), input),
      }));
    },
    async submitCustomer(request, call) {
      return idempotent(call, 'SubmitCustomer', SubmitCustomerResponseSchema, async (tx) => ({
        customer: await submitCustomer(tx, context, platform(call), request.customerId),
      }));
    },
    async upgradeKybScope(request, call) {
      const input = { customerId: request.customerId, body: bodyOrEmpty(CustomerInputSchema, request.customer) };
      return idempotent(call, 'UpgradeKybScope', UpgradeKybScopeResponseSchema, async (tx) => ({
        customer: await upgradeKybScope(tx, context, platform(call), input),
      }));
    },
    async adminGetCustomer(request, call) {
      return { customer: await getCustomer(em(), admin(call), request.customerId) };
    },
    async adminListCustomers(request) {
      const filters = {
        verificationStatus: wordOrUndefined(VerificationStatusSchema, request.verificationStatus),
        businessId: request.businessId,
      };
      return adminListCustomers(em(), filters, request.page);
    },
    async adminReviewCustomer(request, call) {
      const input = { customerId: request.customerId, body: bodyOrEmpty(ReviewInputSchema, request.review) };
      return { customer: await reviewCustomer(em(), context, admin(call), input) };
    },
    async adminListAuditEntries(request, call) {
      return { entries: await listAuditEntries(em(), admin(call), request.customerId) };
    },
    async sandboxReviewCustomer(request, call) {
      const input = { customerId: request.customerId, verdict: request.verdict, comment: request.comment };
      return idempotent(call, 'SandboxReviewCustomer', SandboxReviewCustomerResponseSchema, async (tx) => ({
        customer: await sandboxReviewCustomer(tx, context, call.caller, input),
      }));
    },
    async sandboxCreateCustomer(request, call) {
      const input = { body: bodyOrEmpty(CustomerInputSchema, request.customer), verdict: request.verificationStatus };
      return idempotent(call, 'SandboxCreateCustomer', SandboxCreateCustomerResponseSchema, async (tx) => ({
        customer: await sandboxCreateCustomer(tx, context, call.caller, input),
      }));
    },
  });
}
