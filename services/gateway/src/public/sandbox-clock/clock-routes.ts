import type { SandboxClock } from '@corridor/contracts/corridor/clock/v1/sandbox_clock_pb';
import { z } from '@corridor/config';
import { isUnimplemented } from '@corridor/grpc';
import { shown, typeProblem } from '../../floor/fields.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { servedYet } from '../../floor/served-yet.js';
import { successBody } from '../../floor/success-body.js';
import { iso } from '../../floor/times.js';
import { withExample } from '../../floor/examples.js';
import { zodOpenApi } from '../../floor/zod-schemas.js';
import { readBody } from '../../http/input.js';

/**
 * A business's sandbox clock (issue 34 part 5, decision 0069): payments keeps it, and every other
 * service that judges the business's deadlines keeps a copy that this route sets before it answers,
 * so the next request is judged against the new time wherever it goes.
 */

/** A year, as payments bounds one advance (MAX_ADVANCE_SECONDS of @corridor/sandbox-clock). */
const MAX_ADVANCE_SECONDS = 31_536_000;

const NoBody = z.strictObject({}).meta({ description: 'No fields: send no body, or {}' });

const AdvanceClockBody = z
  .strictObject({
    seconds: z
      .int({
        error: (issue) =>
          issue.code === 'invalid_type'
            ? typeProblem('a whole number of seconds (a JSON integer)')(issue)
            : `must be from 0 to ${MAX_ADVANCE_SECONDS} (a year), got ${shown(issue.input)}`,
      })
      .min(0)
      .max(MAX_ADVANCE_SECONDS)
      .meta({
        description: `How far to move the clock forward, from 0 (the clock as it is, applied everywhere again) to ${MAX_ADVANCE_SECONDS} (a year)`,
      }),
  })
  .meta({ description: 'Moves the business’s sandbox clock forward' });

const dateTime = (description: string) => z.iso.datetime().meta({ description });

const SandboxClockJson = z
  .strictObject({
    now: dateTime('The business’s time: real time plus offset_seconds. Every deadline of the business is judged by it'),
    offset_seconds: z.int().min(0).meta({ description: 'How far ahead of real time the clock is; it only grows' }),
    created_at: dateTime('When the business was given the clock (real time)'),
    updated_at: dateTime('When the clock last moved (real time)'),
  })
  .meta({ description: 'A business’s sandbox clock' });

const { jsonSchemaOf } = zodOpenApi({});

const clockRetrieved = successBody('sandbox clock retrieved', SandboxClockJson);
const clockStarted = successBody('sandbox clock started', SandboxClockJson);
const clockAdvanced = successBody('sandbox clock advanced', SandboxClockJson);

function clockJson(clock: SandboxClock | undefined): z.infer<typeof SandboxClockJson> {
  if (!clock?.now || !clock.createdAt || !clock.updatedAt)
    throw new Error('payments answered a clock without its times');
  return {
    now: iso(clock.now),
    offset_seconds: Number(clock.offsetMs / 1000n),
    created_at: iso(clock.createdAt),
    updated_at: iso(clock.updatedAt),
  };
}

/**
 * Sets the clock's copies to what payments answered. A copy that an older release of its service
 * cannot keep (UNIMPLEMENTED) is passed over: that release judges by real time, as it always did.
 */
async function setCopies({ clients, metadata, logger }: RouteContext, clock: SandboxClock | undefined): Promise<void> {
  const offsetMs = clock?.offsetMs ?? 0n;
  const copies = { 'customer-kyb': clients.customerKybClockCopy, notification: clients.notificationClockCopy };
  await Promise.all(
    Object.entries(copies).map(([service, copy]) =>
      copy.setSandboxClock({ offsetMs }, { metadata }).catch((error: unknown) => {
        if (!isUnimplemented(error)) throw error;
        logger.warn({ service }, 'this release of the service keeps no sandbox clock: it judges by real time');
      }),
    ),
  );
}

/** payments' answer; a payments release without the clock (a rolling deploy) is 503, never a 500. */
const fromOwner = <T>(call: Promise<T>) => servedYet(call, 'the sandbox clock');

async function getClock({ res, clients, call }: RouteContext): Promise<void> {
  const { clock } = await fromOwner(clients.sandboxClock.getSandboxClock({}, call));
  res.json({ message: 'sandbox clock retrieved', data: clockJson(clock) });
}

async function startClock(context: RouteContext): Promise<void> {
  const { req, res, clients, call } = context;
  readBody(NoBody, req.body);
  const { clock, created } = await fromOwner(clients.sandboxClock.startSandboxClock({}, call));
  await setCopies(context, clock);
  res
    .status(created ? 201 : 200)
    .json({ message: created ? 'sandbox clock started' : 'sandbox clock retrieved', data: clockJson(clock) });
}

async function advanceClock(context: RouteContext): Promise<void> {
  const { req, res, clients, call } = context;
  const body = readBody(AdvanceClockBody, req.body);
  const { clock } = await fromOwner(clients.sandboxClock.advanceSandboxClock({ seconds: BigInt(body.seconds) }, call));
  await setCopies(context, clock);
  res.json({ message: 'sandbox clock advanced', data: clockJson(clock) });
}

const FORBIDDEN = {
  description:
    'In production: there is no sandbox clock, production runs on real time (SANDBOX_ONLY); or the token lacks the scope (SCOPE_MISSING), the business has no API services (API_DISABLED), or the caller’s address is not allowed (IP_NOT_ALLOWED)',
};
const NO_CLOCK = {
  description:
    'Your business has no sandbox clock: start one with POST /api/external/sandbox/clock (SANDBOX_CLOCK_NOT_FOUND)',
};
const UNAVAILABLE = {
  description:
    'payments, which keeps the clock, is unavailable; or a service that keeps a copy of it did not take it, after the clock itself moved: send the same request with the same Idempotency-Key, or advance by 0 seconds, to apply it everywhere (SERVICE_UNAVAILABLE, with Retry-After)',
};
const exampleClock = {
  now: '2026-11-23T09:00:00.000Z',
  offset_seconds: 176400,
  created_at: '2026-11-21T08:00:00.000Z',
  updated_at: '2026-11-21T09:00:00.000Z',
};

export const SANDBOX_CLOCK_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/sandbox/clock',
    scope: 'mock:webhook:trigger',
    operationId: 'getSandboxClock',
    summary: 'Sandbox: your business’s clock, the time every one of its deadlines is judged against',
    responses: {
      200: {
        description: 'The clock',
        schema: withExample(jsonSchemaOf(clockRetrieved), { message: 'sandbox clock retrieved', data: exampleClock }),
      },
      403: FORBIDDEN,
      404: NO_CLOCK,
      503: UNAVAILABLE,
    },
    handle: getClock,
  },
  {
    method: 'post',
    path: '/api/external/sandbox/clock',
    scope: 'mock:webhook:trigger',
    operationId: 'startSandboxClock',
    summary:
      'Sandbox: gives your business a clock at the present; from then on a money request’s expiry, the refund window, a quote’s expiry, the rail’s payout delays, a KYC session’s deadline and the webhook retry ladder are judged against it',
    requestBody: jsonSchemaOf(NoBody, 'input'),
    requestBodyRequired: false,
    responses: {
      200: {
        description: 'Your business had a clock already: that clock, unchanged',
        schema: jsonSchemaOf(clockRetrieved),
      },
      201: {
        description: 'The new clock, at the present',
        schema: withExample(jsonSchemaOf(clockStarted), {
          message: 'sandbox clock started',
          data: {
            ...exampleClock,
            now: exampleClock.created_at,
            offset_seconds: 0,
            updated_at: exampleClock.created_at,
          },
        }),
      },
      400: { description: 'The body is not valid JSON (MALFORMED_JSON)' },
      403: FORBIDDEN,
      422: { description: 'The body has a field: send no body, or {} (VALIDATION_FAILED)' },
      503: UNAVAILABLE,
    },
    handle: startClock,
  },
  {
    method: 'post',
    path: '/api/external/sandbox/clock/advance',
    scope: 'mock:webhook:trigger',
    operationId: 'advanceSandboxClock',
    summary:
      'Sandbox: moves your business’s clock forward; what became due (expiries, retries, payout settlements, the close of the refund window) happens within seconds, with its webhooks',
    requestBody: withExample(jsonSchemaOf(AdvanceClockBody, 'input'), { seconds: 176400 }),
    responses: {
      200: {
        description: 'The clock, moved',
        schema: withExample(jsonSchemaOf(clockAdvanced), { message: 'sandbox clock advanced', data: exampleClock }),
      },
      400: { description: 'The body is not valid JSON (MALFORMED_JSON)' },
      403: FORBIDDEN,
      404: NO_CLOCK,
      422: {
        description: `seconds is missing, not a JSON integer, or outside 0 to ${MAX_ADVANCE_SECONDS} (VALIDATION_FAILED, \`errors\` names the field)`,
      },
      503: UNAVAILABLE,
    },
    handle: advanceClock,
  },
];
