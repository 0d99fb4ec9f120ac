import { permissionDenied, type CallerContext } from '@corridor/grpc';
import type { Actor, CustomerContext } from './context.js';

/**
 * The caller of a sandbox simulation (SandboxReviewCustomer, SandboxRecordKycResult): a platform
 * acting on its own business, in the sandbox only. The caller's environment (metadata, as the
 * gateway and the dashboard send it) and this process's must both be sandbox, so neither a
 * production key nor a sandbox caller pointed at production can give a verdict. The audit trail names
 * the platform's credential or dashboard member, marked as a sandbox simulation, never "admin".
 */
export function sandboxPlatform(caller: CallerContext, context: CustomerContext): Actor & { businessId: string } {
  if (!caller.businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  if (caller.environment !== 'sandbox' || context.environment !== 'sandbox') {
    // PERMISSION_DENIED, as payments' and notification's simulations answer it (the API's 403).
    throw permissionDenied(
      'SANDBOX_ONLY',
      'this is a sandbox simulation; in production Corridor’s back office reviews customers and the identity provider gives KYC verdicts',
    );
  }
  const credential = caller.credentialId ?? 'unknown';
  // A dashboard member calls as `member:<id>`; an API key by its client id.
  const who = credential.startsWith('member:') ? credential : `credential:${credential}`;
  return { businessId: caller.businessId, name: `sandbox:${who}`, requestId: caller.requestId };
}
