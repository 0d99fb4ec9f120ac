import { DomainError } from '@corridor/grpc';

/** The DomainError a use case's call fails with; anything else fails the spec. */
export async function failure(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}
