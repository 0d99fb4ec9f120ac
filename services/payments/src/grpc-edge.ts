import type { GenService } from '@bufbuild/protobuf/codegenv2';
import type { EntityManager, MikroORM } from '@corridor/db';
import { permissionDenied, type CallContext, type ServiceImplementation } from '@corridor/grpc';
import { idempotentWrites, type IdempotentWrite } from '@corridor/idempotency';
import type { PaymentsContext } from './context.js';

/** What every capability's gRPC edge is built from: thin, one fork of the entity manager per call. */
export interface PaymentsEdge {
  em: () => EntityManager;
  context: PaymentsContext;
  /** A public write: its Idempotency-Key claimed in the transaction of the effect. */
  idempotent: IdempotentWrite<EntityManager>;
}

export function paymentsEdge(orm: MikroORM, context: PaymentsContext): PaymentsEdge {
  const em = () => orm.em.fork();
  return { em, context, idempotent: idempotentWrites(em) };
}

/** The handlers of one generated service, checked against it at compile time. */
export type HandlersOf<S> = S extends GenService<infer M> ? ServiceImplementation<M> : never;

/** The business every public method acts for: the gateway's `business-id` metadata. */
export function businessOf({ caller }: CallContext): string {
  if (!caller.businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  return caller.businessId;
}

/** The keyset links of a list's page, as its response carries them. */
export const pageLinks = (page: {
  nextCursor?: string | undefined;
  previousCursor?: string | undefined;
  limit: number;
}) => ({
  nextCursor: page.nextCursor,
  previousCursor: page.previousCursor,
  limit: page.limit,
});
