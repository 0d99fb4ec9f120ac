import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import {
  createClient,
  registration,
  startGrpcServer,
  type CallerContext,
  type ClientOf,
  type RunningGrpcServer,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';

/** One call the fake received: the method, the decoded request and the caller metadata. */
export interface ReceivedCall {
  method: string;
  request: Record<string, unknown>;
  caller: CallerContext;
}

/** A method's answer, or a DomainError to throw; replaces the default answer of that method. */
export type Answer = (request: Record<string, unknown>) => unknown;

/**
 * A service as a real gRPC server on loopback answering canned messages, so route specs cross the
 * same wire (Struct, bigint, Timestamp) as production without the service or its database.
 * `defaultAnswer` gives each method's answer until a spec sets one in `answers`.
 */
export async function startFakeGrpcService<S extends GenServiceMethods>(
  service: GenService<S>,
  defaultAnswer: (method: string) => Answer,
) {
  const calls: ReceivedCall[] = [];
  const answers = new Map<string, Answer>();
  const implementation = Object.fromEntries(
    service.methods.map((method) => [
      method.localName,
      async (request: Record<string, unknown>, context: { caller: CallerContext }) => {
        calls.push({ method: method.localName, request, caller: context.caller });
        return (answers.get(method.localName) ?? defaultAnswer(method.localName))(request);
      },
    ]),
  );
  const server: RunningGrpcServer = await startGrpcServer({
    address: '127.0.0.1:0',
    services: [registration(service, implementation as never)],
    logger: createLogger('test', { level: 'silent' }),
  });
  const client: ClientOf<GenService<S>> = createClient(service, { address: `127.0.0.1:${server.port}` });
  return {
    client,
    calls,
    answers,
    async stop() {
      client.close();
      await server.shutdown(1_000);
    },
  };
}
