import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AdminAdjustWalletResponseSchema,
  CreateSwapResponseSchema,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { WalletsService } from '@corridor/contracts/corridor/payments/v1/wallets_service_pb';
import { businessOf, type HandlersOf, type PaymentsEdge } from '../grpc-edge.js';
import { checkLedger } from '../ledger/index.js';
import { createSwap } from '../swaps/create-swap.js';
import { adjustWallet } from './adjust-wallet.js';
import { listWallets } from './wallets.js';

/** The gRPC edge of wallets and swaps, and of the ledger beneath them. */
export function walletsHandlers({ em, context, idempotent }: PaymentsEdge): HandlersOf<typeof WalletsService> {
  return {
    async listWallets(_request, call) {
      return { wallets: await listWallets(em(), businessOf(call)) };
    },
    async createSwap(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'CreateSwap', CreateSwapResponseSchema, async (tx) => ({
        transaction: await createSwap(tx, context, businessId, request),
      }));
    },
    async adminAdjustWallet(request, call) {
      return idempotent(call, 'AdminAdjustWallet', AdminAdjustWalletResponseSchema, async (tx) => ({
        transaction: await adjustWallet(tx, context, request, call.caller.requestId),
      }));
    },
    async adminListWallets(request) {
      return { wallets: await listWallets(em(), request.businessId) };
    },
    async adminCheckLedger() {
      const check = await checkLedger(em());
      return {
        ok: check.ok,
        violations: check.violations,
        accountsChecked: check.accountsChecked,
        transfersChecked: check.transfersChecked,
        checkedAt: timestampFromDate(context.now()),
      };
    },
  };
}
