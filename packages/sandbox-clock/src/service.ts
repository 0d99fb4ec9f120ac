import {
  AdvanceSandboxClockResponseSchema,
  SandboxClockCopyService,
  SandboxClockService,
} from '@corridor/contracts/corridor/clock/v1/sandbox_clock_pb';
import type { EntityManager } from '@mikro-orm/core';
import {
  invalidArgument,
  notFound,
  permissionDenied,
  registration,
  type CallContext,
  type ServiceRegistration,
} from '@corridor/grpc';
import type { IdempotentWrite } from '@corridor/idempotency';
import { MAX_ADVANCE_SECONDS, type BusinessClock } from './business-clock.js';

export interface SandboxClockEdge {
  em: () => EntityManager;
  clock: BusinessClock;
}

/** The business a clock call acts for, in the sandbox only (production has no clocks). */
function sandboxBusinessOf(clock: BusinessClock, { caller }: CallContext): string {
  if (clock.environment === 'production') {
    throw permissionDenied('SANDBOX_ONLY', 'a sandbox clock exists only in the sandbox; production runs on real time');
  }
  if (!caller.businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  return caller.businessId;
}

const noClock = () =>
  notFound(
    'SANDBOX_CLOCK_NOT_FOUND',
    'this business has no sandbox clock: start one with POST /api/external/sandbox/clock',
  );

/** corridor.clock.v1.SandboxClockService over the owner's sandbox_clock table (payments, decision 0069). */
export function sandboxClockRegistration(
  { em, clock }: SandboxClockEdge,
  idempotent: IdempotentWrite<EntityManager>,
): ServiceRegistration {
  return registration(SandboxClockService, {
    async getSandboxClock(_request, call) {
      const found = await clock.get(em(), sandboxBusinessOf(clock, call));
      if (!found) throw noClock();
      return { clock: found };
    },
    async startSandboxClock(_request, call) {
      return clock.start(em(), sandboxBusinessOf(clock, call));
    },
    async advanceSandboxClock({ seconds }, call) {
      const businessId = sandboxBusinessOf(clock, call);
      if (seconds < 0n || seconds > BigInt(MAX_ADVANCE_SECONDS)) {
        throw invalidArgument(`seconds must be from 0 to ${MAX_ADVANCE_SECONDS} (a year); got ${seconds}`, {
          seconds: [`must be from 0 to ${MAX_ADVANCE_SECONDS}`],
        });
      }
      return idempotent(call, 'AdvanceSandboxClock', AdvanceSandboxClockResponseSchema, async (tx) => {
        const advanced = await clock.advance(tx, businessId, seconds);
        if (!advanced) throw noClock();
        return { clock: advanced };
      });
    },
  });
}

/**
 * corridor.clock.v1.SandboxClockCopyService over a follower's sandbox_clock table (customer-kyb,
 * notification). `onSet` judges at once what the new time made due, rather than at the next sweep.
 */
export function sandboxClockCopyRegistration(
  { em, clock }: SandboxClockEdge,
  onSet: (businessId: string) => Promise<void> = async () => undefined,
): ServiceRegistration {
  return registration(SandboxClockCopyService, {
    async setSandboxClock({ offsetMs }, call) {
      const businessId = sandboxBusinessOf(clock, call);
      if (offsetMs < 0n)
        throw invalidArgument(`offset_ms must not be negative; got ${offsetMs}`, {
          offset_ms: ['must not be negative'],
        });
      const set = await clock.set(em(), businessId, offsetMs);
      await onSet(businessId);
      return { clock: set };
    },
  });
}
