import type { TransactionsService } from '@corridor/contracts/corridor/payments/v1/transactions_service_pb';
import { businessOf, pageLinks, type HandlersOf, type PaymentsEdge } from '../grpc-edge.js';
import { refundOfCollection } from '../refunds/refunds.js';
import { getTransaction, listTransactions } from './read-transactions.js';

/** The gRPC edge of transactions: every money movement of a business, read back. */
export function transactionsHandlers({ em }: PaymentsEdge): HandlersOf<typeof TransactionsService> {
  return {
    async getTransaction(request, call) {
      const transaction = await getTransaction(em(), businessOf(call), request.transactionId);
      return {
        transaction,
        refund: transaction.collectionDetails ? await refundOfCollection(em(), transaction.id) : undefined,
      };
    },
    async listTransactions(request, call) {
      const page = await listTransactions(em(), businessOf(call), request);
      return { transactions: page.transactions, page: pageLinks(page) };
    },
  };
}
