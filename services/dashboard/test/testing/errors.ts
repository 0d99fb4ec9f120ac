import { DomainError, Status } from '@corridor/grpc';

/** identity's lockout of an email, as the fake throws it. */
export const resourceExhausted = (reason: string, message: string) =>
  new DomainError(Status.RESOURCE_EXHAUSTED, reason, message);
