import { create, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import type { CallContext } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { runIdempotent } from './run-idempotent.js';

/**
 * The idempotent write of a gRPC edge, bound to the service's entity manager: `write` returns the
 * response's fields, built in the one transaction that claims the caller's key (runIdempotent) on a
 * fresh fork. `route` names the key's scope in idempotency_key, so it stays the method's name.
 */
export function idempotentWrites<E extends EntityManager>(em: () => E) {
  return <Desc extends DescMessage>(
    call: CallContext,
    route: string,
    schema: Desc,
    write: (tx: E) => Promise<MessageInitShape<Desc>>,
  ): Promise<MessageShape<Desc>> =>
    runIdempotent(em(), call, route, schema, async (tx) => create(schema, await write(tx)));
}

export type IdempotentWrite<E extends EntityManager> = ReturnType<typeof idempotentWrites<E>>;
