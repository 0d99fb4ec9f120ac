import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';

/**
 * Names the HTTP request being served after its route template (`/customer/{id}`): the HTTP
 * instrumentation then calls its span `GET /customer/{id}` and sets `http.route` on the span and
 * the request-duration metric. What express's instrumentation did, without a wrapper around every
 * middleware and router layer of every request (issue 14). Outside a traced request, nothing.
 */
export function recordHttpRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}
