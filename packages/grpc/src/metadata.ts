import { Metadata } from '@grpc/grpc-js';

/**
 * What the gateway tells a service about the caller (DESIGN.md: the gateway authenticates once,
 * services trust metadata). Keys are lowercase gRPC metadata names.
 */
export interface CallerContext {
  businessId?: string;
  credentialId?: string;
  scopes?: readonly string[];
  environment?: string;
  requestId?: string;
}

const KEYS = {
  businessId: 'business-id',
  credentialId: 'credential-id',
  scopes: 'scopes',
  environment: 'environment',
  requestId: 'request-id',
} as const;

export function callerMetadata(caller: CallerContext): Metadata {
  const metadata = new Metadata();
  if (caller.businessId) metadata.set(KEYS.businessId, caller.businessId);
  if (caller.credentialId) metadata.set(KEYS.credentialId, caller.credentialId);
  if (caller.scopes) metadata.set(KEYS.scopes, caller.scopes.join(' '));
  if (caller.environment) metadata.set(KEYS.environment, caller.environment);
  if (caller.requestId) metadata.set(KEYS.requestId, caller.requestId);
  return metadata;
}

function first(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function readCaller(metadata: Metadata): CallerContext {
  const scopes = first(metadata, KEYS.scopes);
  return {
    businessId: first(metadata, KEYS.businessId),
    credentialId: first(metadata, KEYS.credentialId),
    scopes: scopes ? scopes.split(' ') : [],
    environment: first(metadata, KEYS.environment),
    requestId: first(metadata, KEYS.requestId),
  };
}
