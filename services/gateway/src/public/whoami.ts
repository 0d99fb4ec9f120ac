import { ALL_SCOPES } from '@corridor/scopes';
import type { WindowUsage } from '../auth/access-guard.js';
import type { JsonSchema } from '../http/json-schema.js';
import type { RouteContext } from '../floor/route-context.js';

const window = (usage: WindowUsage) => ({
  limit: usage.limit,
  remaining: Math.max(0, usage.limit - usage.used),
  reset_seconds: usage.resetSeconds,
});

/** The first call a platform makes to check its set-up (issue 3 item 7). */
export async function whoami({ res, auth }: RouteContext): Promise<void> {
  const { caller, minute, hour } = auth;
  res.json({
    message: 'authenticated',
    data: {
      business_id: caller.businessId,
      environment: caller.environment,
      client_id: caller.clientId,
      scopes: caller.scopes,
      token_expires_at: new Date(caller.expiresAt * 1000).toISOString(),
      rate_limits: { per_minute: window(minute), per_hour: window(hour) },
    },
  });
}

const windowSchema = (name: string): JsonSchema => ({
  type: 'object',
  description: `The fixed ${name} window, this request included`,
  required: ['limit', 'remaining', 'reset_seconds'],
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 0, description: `requests allowed per ${name} for this business` },
    remaining: { type: 'integer', minimum: 0 },
    reset_seconds: { type: 'integer', minimum: 0, description: 'seconds until the window starts afresh' },
  },
});

/** The body whoami answers; closed objects, so a field added above without its schema fails the e2e suite. */
export const whoamiResponse: JsonSchema = {
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', const: 'authenticated' },
    data: {
      type: 'object',
      required: ['business_id', 'environment', 'client_id', 'scopes', 'token_expires_at', 'rate_limits'],
      additionalProperties: false,
      properties: {
        business_id: { type: 'string', format: 'uuid' },
        environment: { type: 'string', enum: ['sandbox', 'production'] },
        client_id: { type: 'string', description: 'ci_test_… in sandbox, ci_live_… in production' },
        scopes: {
          type: 'array',
          description: 'the scopes this token carries; empty when the token was requested without scope',
          items: { type: 'string', enum: ALL_SCOPES },
        },
        token_expires_at: { type: 'string', format: 'date-time' },
        rate_limits: {
          type: 'object',
          required: ['per_minute', 'per_hour'],
          additionalProperties: false,
          properties: { per_minute: windowSchema('minute'), per_hour: windowSchema('hour') },
        },
      },
    },
  },
};
