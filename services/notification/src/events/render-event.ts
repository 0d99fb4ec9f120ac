import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Event } from '@corridor/contracts/events';
import {
  CustomerTypeSchema,
  KybScopeSchema,
  VerificationStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { customerVocabulary, eventWordOf } from '@corridor/customer-json';
import { renderCollection, renderRefund } from './collection-webhooks.js';
import { renderKycSessionCompleted, renderKycSessionExpired, sessionOfEvent } from './kyc-session-webhooks.js';
import { renderPayout } from './payout-webhooks.js';
import type { WebhookData, WebhookEventType } from './webhook-events.js';

/** customer.status_changed's words are the customer API's (decision 0010). */
const CUSTOMER_TYPES = customerVocabulary(CustomerTypeSchema);
const KYB_SCOPES = customerVocabulary(KybScopeSchema);
const STATUSES = customerVocabulary(VerificationStatusSchema);

export interface RenderedEvent {
  eventType: WebhookEventType;
  data: WebhookData;
}

/**
 * The public webhook of a bus event (seed 6, decision 0010), or undefined for the events platforms
 * are not told about (identity's business and credential events, swaps, adjustments, an unpaid money
 * request). Throws when the event cannot be shown as its contract says (a defect upstream).
 */
export function renderEvent(event: Event): RenderedEvent | undefined {
  const occurredAt = event.occurredAt ? timestampDate(event.occurredAt) : new Date(0);
  switch (event.payload.case) {
    case 'customerStatusChanged': {
      const change = event.payload.value;
      const scope = eventWordOf(KYB_SCOPES, change.scope, change.kybScope, 'scope');
      return {
        eventType: 'customer.status_changed',
        data: {
          customer_id: change.customerId,
          business_id: event.businessId,
          customer_type: eventWordOf(CUSTOMER_TYPES, change.type, change.customerType, 'type'),
          kyb_scope: scope === '' ? null : scope,
          old_status: eventWordOf(STATUSES, change.oldVerificationStatus, change.oldStatus, 'old_verification_status'),
          new_status: eventWordOf(STATUSES, change.newVerificationStatus, change.newStatus, 'new_verification_status'),
          changed_at: occurredAt.toISOString(),
        },
      };
    }
    // Seed 6.2, decision 0016: a merchant KYC session's verdict or expiry (a cancel has no event).
    case 'kycSessionCompleted':
      return renderKycSessionCompleted(sessionOfEvent(event.payload.value.session, event.businessId));
    case 'kycSessionExpired':
      return renderKycSessionExpired(sessionOfEvent(event.payload.value.session, event.businessId));
    case 'transactionCreated':
    case 'transactionUpdated': {
      const { transaction } = event.payload.value;
      if (!transaction) return undefined;
      // Decision 0013: a payout's every state change.
      if (transaction.payoutDetails) return renderPayout(transaction);
      // Collections and refunds by their new status; an update keeping it (a collection's refund_status) is none.
      const payload = event.payload;
      if (payload.case === 'transactionUpdated' && payload.value.previousStatus === transaction.status)
        return undefined;
      if (transaction.type === TransactionType.COLLECTION) return renderCollection(transaction);
      if (transaction.type === TransactionType.REFUND) return renderRefund(transaction);
      // Swaps and adjustments are read, not pushed.
      return undefined;
    }
    default:
      return undefined;
  }
}
