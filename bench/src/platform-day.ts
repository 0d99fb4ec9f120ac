import { randomUUID } from 'node:crypto';
import { businessBody } from '../../test/dist/support/customers.js';
import type { CollectionsUnderLoad } from './collections-under-load.js';
import type { Target } from './load.js';
import type { Collected } from './money-phases.js';
import type { PaymentsUnderLoad } from './payments-under-load.js';
import type { PayoutsUnderLoad } from './payouts-under-load.js';
import { closedLoop, openLoop, percentile, type LoopMeasurement, type LoopRequest } from './request-loop.js';

/**
 * A platform's day (issue 35 item 4), per 20 requests: mostly reads (whoami 2, a customer 4, the
 * wallets 3, a page of transactions 3), a customer created (1), and money moving (a swap 2, a payout
 * 2, an incoming collection 3); each collection and payout also makes webhook deliveries (a
 * collection.successful; payout.pending, processing and successful), delivered meanwhile.
 */
export const DAY_MIX: { route: DayRoute; share: number }[] = [
  { route: 'GET /whoami', share: 2 },
  { route: 'GET /customer/{id}', share: 4 },
  { route: 'GET /wallet', share: 3 },
  { route: 'GET /transaction', share: 3 },
  { route: 'POST /customer', share: 1 },
  { route: 'POST /swap', share: 2 },
  { route: 'POST /payout', share: 2 },
  { route: 'POST …/incoming-transfer', share: 3 },
];

export type DayRoute =
  | 'GET /whoami'
  | 'GET /customer/{id}'
  | 'GET /wallet'
  | 'GET /transaction'
  | 'POST /customer'
  | 'POST /swap'
  | 'POST /payout'
  | 'POST …/incoming-transfer';

/** The order routes take within each 20: spread out, so no route comes in a burst. */
const SEQUENCE: DayRoute[] = (() => {
  const total = DAY_MIX.reduce((sum, entry) => sum + entry.share, 0);
  const slots = DAY_MIX.flatMap((entry) =>
    Array.from({ length: entry.share }, (_, k) => ({ route: entry.route, at: (k + 0.5) / entry.share })),
  );
  return slots
    .sort((a, b) => a.at - b.at)
    .slice(0, total)
    .map((slot) => slot.route);
})();

export interface DayCallers {
  /** whoami and the customer read, rotating over the reading businesses. */
  whoami: Target;
  customerRead: Target;
  /** A token of a reading business with customer:write. */
  customerWriter: { url: string; authorization: string };
  payments: PaymentsUnderLoad;
  payouts: PayoutsUnderLoad;
  collections: CollectionsUnderLoad;
}

export interface RouteFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface DayOutcome {
  saturationPerSecond: number;
  ratePerSecond: number;
  seconds: number;
  measurement: LoopMeasurement;
  byRoute: Record<string, RouteFigures>;
  /** What the day made, for the books. */
  swaps: number;
  payouts: number;
  collected: Collected[];
  problems: string[];
}

/** Request `index` of the day: its route, and the request as sent. */
function dayRequests(callers: DayCallers) {
  const routes = new Map<number, { route: DayRoute; collected?: { collector: Collected['collector'] } }>();
  // The collections' own turn over the collectors: the mix's slots would visit only some of them.
  let collectionTurn = 0;
  const turn = (target: Target, index: number): LoopRequest => {
    const rotation = target.rotation?.[index % target.rotation.length];
    const url = new URL(target.url);
    return {
      url: rotation ? `${url.origin}${rotation.path}` : target.url,
      method: target.method ?? 'GET',
      headers: rotation?.headers ?? target.headers ?? {},
      ...(target.body === undefined ? {} : { body: target.body }),
    };
  };
  const make = (index: number): LoopRequest => {
    const route = SEQUENCE[index % SEQUENCE.length] ?? 'GET /whoami';
    routes.set(index, { route });
    switch (route) {
      case 'GET /whoami':
        return turn(callers.whoami, index);
      case 'GET /customer/{id}':
        return turn(callers.customerRead, index);
      case 'GET /wallet':
        return turn(callers.payments.walletRequest, index);
      case 'GET /transaction': {
        const wallet = callers.payments.walletRequest;
        return { ...turn(wallet, index), url: wallet.url.replace(/\/wallet$/, '/transaction') };
      }
      case 'POST /customer':
        return {
          url: callers.customerWriter.url,
          method: 'POST',
          headers: { authorization: callers.customerWriter.authorization, 'content-type': 'application/json' },
          body: JSON.stringify(businessBody()),
        };
      case 'POST /swap':
        return turn(callers.payments.swapRequest, index);
      case 'POST /payout': {
        const payout = turn(callers.payouts.payoutRequest, index);
        return { ...payout, body: (payout.body ?? '').replace('[<id>]', `day-${randomUUID()}`) };
      }
      case 'POST …/incoming-transfer': {
        const { collector, request } = callers.collections.transfer(collectionTurn++);
        routes.set(index, { route, collected: { collector } });
        return request;
      }
    }
  };
  return { make, routes };
}

/**
 * The day's mix closed-loop at `connections` for a moment (its saturation rate), then open-loop at half
 * that rate for `seconds`: each route's p50 and p99 at a load the platform keeps up with.
 */
export async function runPlatformDay(
  callers: DayCallers,
  settings: { seconds: number; connections: number; saturationRequests: number },
): Promise<DayOutcome> {
  const limitSeconds = settings.seconds * 4 + 30;
  console.log(`… a platform's day: ${settings.saturationRequests} requests of the mix closed-loop (saturation)`);
  const probe = dayRequests(callers);
  const saturation = await closedLoop(probe.make, {
    count: settings.saturationRequests,
    connections: settings.connections,
    limitSeconds,
  });
  const ratePerSecond = Math.max(1, Math.round(saturation.requestsPerSecond / 2));
  console.log(
    `… a platform's day: open loop at ${ratePerSecond}/s (half of ${saturation.requestsPerSecond}/s) for ${settings.seconds} s`,
  );
  const day = dayRequests(callers);
  const measurement = await openLoop(day.make, { ratePerSecond, seconds: settings.seconds, maxInFlight: 64 });

  const byRoute: Record<string, RouteFigures> = {};
  for (const { route } of DAY_MIX) {
    const answers = measurement.answers.filter((answer) => day.routes.get(answer.index)?.route === route);
    const latencies = answers.map((answer) => answer.latencyMs).sort((a, b) => a - b);
    byRoute[route] = {
      requests: answers.length,
      p50Ms: Number(percentile(latencies, 0.5).toFixed(1)),
      p99Ms: Number(percentile(latencies, 0.99).toFixed(1)),
      non2xx: answers.filter((answer) => answer.status < 200 || answer.status > 299).length,
    };
  }
  // The books of both loops: every swap, payout and collection answered 201.
  let swaps = 0;
  let payouts = 0;
  const collected: Collected[] = [];
  for (const [loop, answers] of [
    [probe, saturation],
    [day, measurement],
  ] as const) {
    for (const answer of answers.answers) {
      const sent = loop.routes.get(answer.index);
      if (answer.status !== 201 || !sent) continue;
      if (sent.route === 'POST /swap') swaps += 1;
      if (sent.route === 'POST /payout') payouts += 1;
      if (sent.collected) {
        const { data } = JSON.parse(answer.text) as { data: { id: string; net: number } };
        collected.push({ transactionId: data.id, collector: sent.collected.collector, net: data.net, answeredAt: 0 });
      }
    }
  }
  const problems: string[] = [];
  for (const [name, answers] of [
    ['saturation', saturation],
    ['open loop', measurement],
  ] as const)
    if (answers.non2xx > 0 || answers.errors > 0)
      problems.push(
        `platform day (${name}): ${answers.non2xx} non-2xx ${JSON.stringify(answers.statusCodes)}, ${answers.errors} errors`,
      );
  return {
    saturationPerSecond: saturation.requestsPerSecond,
    ratePerSecond,
    seconds: settings.seconds,
    measurement,
    byRoute,
    swaps,
    payouts,
    collected,
    problems,
  };
}
