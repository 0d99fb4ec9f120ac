import type { ReferenceDataService } from '@corridor/contracts/corridor/payments/v1/reference_data_service_pb';
import { permissionDenied } from '@corridor/grpc';
import { businessOf, type HandlersOf, type PaymentsEdge } from '../grpc-edge.js';
import { allCurrencies, currencyMessage } from './currencies.js';
import { listFeeRules, quoteFees, setFeeRule } from './fees.js';
import { listMidRates, quoteRate, setMidRate, setSpread } from './rates.js';

/** The gRPC edge of reference data: currencies, rates and spreads, fee rules. */
export function referenceDataHandlers({ em, context }: PaymentsEdge): HandlersOf<typeof ReferenceDataService> {
  return {
    async listCurrencies() {
      return { currencies: [...(await allCurrencies(em())).values()].map(currencyMessage) };
    },
    async quoteRate(request, call) {
      return {
        quote: await quoteRate(em(), context, businessOf(call), { from: request.fromCurrency, to: request.toCurrency }),
      };
    },
    async getFees(request, call) {
      return { fees: await quoteFees(em(), businessOf(call), request) };
    },
    async adminSetRate(request) {
      return {
        rate: await setMidRate(em(), context, {
          baseCurrency: request.baseCurrency,
          quoteCurrency: request.quoteCurrency,
          rate: request.rate,
        }),
      };
    },
    async adminListRates() {
      return { rates: await listMidRates(em()), defaultSpreadBps: context.defaultSpreadBps };
    },
    async adminSetSpread(request) {
      return {
        businessId: request.businessId,
        spreadBps: await setSpread(em(), context, request.businessId, request.spreadBps),
      };
    },
    async adminSetFeeRule(request) {
      if (!request.rule) throw permissionDenied('NO_RULE', 'the call carries no fee rule');
      return { rule: await setFeeRule(em(), context, request.rule) };
    },
    async adminListFeeRules(request) {
      return { rules: await listFeeRules(em(), request.businessId) };
    },
  };
}
