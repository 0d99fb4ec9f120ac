import { timestampDate } from '@bufbuild/protobuf/wkt';
import { KybScope, type Customer } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { callerMetadata, DomainError, Status, type ClientOf } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import { CUSTOMER_TYPES, VERIFICATION_STATUSES, type CustomerFacts } from './customer-facts.js';

/** customer-kyb's answer about one customer of a business, as the projection holds customers. */
export interface CustomerSource {
  /** The customer as customer-kyb holds it now; undefined when it is not a customer of the business. */
  customerOf(businessId: string, customerId: string): Promise<CustomerFacts | undefined>;
  /** Where closing a rejected customer's accounts is told. */
  logger?: Logger;
}

/** What a bank account opened for the customer is named after (customer-kyb's displayNameOf). */
function displayNameOf({ data }: Customer): string {
  const text = (value: string | undefined) => value?.trim() ?? '';
  if (data.case === 'business') return text(data.value.businessName);
  if (data.case === 'individual')
    return [text(data.value.firstName), text(data.value.lastName)].filter(Boolean).join(' ');
  throw new Error('customer-kyb answered a customer without its typed data');
}

/** The message as the facts an event would carry, as of its updated_at. */
export function factsOfCustomer(customer: Customer): CustomerFacts {
  if (!customer.updatedAt) throw new Error(`customer-kyb answered customer ${customer.id} without updated_at`);
  const customerType = CUSTOMER_TYPES.toWord(customer.type, 'type');
  return {
    customerId: customer.id,
    businessId: customer.businessId,
    customerType,
    // A business stored without a scope reads as MINIMAL (seed 2.1), as its events say.
    kybScope: customerType === 'business' ? (customer.kybScope === KybScope.FULL ? 'FULL' : 'MINIMAL') : '',
    verificationStatus: VERIFICATION_STATUSES.toWord(customer.verificationStatus, 'verification_status'),
    displayName: displayNameOf(customer),
    at: timestampDate(customer.updatedAt),
  };
}

/** Statuses that say customer-kyb is away or slow, so a retry is the remedy (503, SERVICE_UNAVAILABLE). */
const AWAY = new Set([Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED, Status.RESOURCE_EXHAUSTED, Status.ABORTED]);

/**
 * customer-kyb over gRPC (CustomerService.GetCustomer), called as the business itself, so another
 * business's customer is NOT_FOUND there as here. customer-kyb away is UNAVAILABLE: a platform is
 * told to retry, never that its customer does not exist.
 */
export function customerKybSource(
  client: Pick<ClientOf<typeof CustomerService>, 'getCustomer'>,
  options: { environment: string; logger?: Logger },
): CustomerSource {
  return {
    logger: options.logger,
    async customerOf(businessId, customerId) {
      try {
        const { customer } = await client.getCustomer(
          { customerId },
          { metadata: callerMetadata({ businessId, environment: options.environment }) },
        );
        if (!customer || customer.businessId !== businessId) return undefined;
        return factsOfCustomer(customer);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.status === Status.NOT_FOUND) return undefined;
        if (AWAY.has(error.status)) {
          options.logger?.warn({ err: error, customer: customerId }, 'customer-kyb did not answer a customer read');
          throw new DomainError(
            Status.UNAVAILABLE,
            'CUSTOMER_SERVICE_UNAVAILABLE',
            'customer-kyb is unavailable, so the customer cannot be checked; retry shortly',
          );
        }
        // Anything else is a defect between the two services, not the platform's to act on.
        throw new Error(`customer-kyb refused to read customer ${customerId}: ${error.reason}`, { cause: error });
      }
    },
  };
}
