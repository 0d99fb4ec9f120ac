import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import {
  createClients,
  registration,
  startGrpcServer,
  type CallerContext,
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
 * Services as one real gRPC server on loopback answering canned messages, so route specs cross the
 * same wire (Struct, bigint, Timestamp) as production without the service or its database.
 * `defaultAnswer` gives each method's answer until a spec sets one in `answers`; methods are known
 * by their local name, so no two of `services` may share one.
 */
export async function startFakeGrpcServices<M extends Record<string, GenService<GenServiceMethods>>>(
  services: M,
  defaultAnswer: (method: string) => Answer,
) {
  const calls: ReceivedCall[] = [];
  const answers = new Map<string, Answer>();
  const names = Object.values(services).flatMap((service) => service.methods.map((method) => method.localName));
  const shared = names.filter((name, index) => names.indexOf(name) !== index);
  if (shared.length > 0) throw new Error(`the fake services share the methods ${shared.join(', ')}`);
  const implementationOf = (service: GenService<GenServiceMethods>) =>
    Object.fromEntries(
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
    services: Object.values(services).map((service) => registration(service, implementationOf(service) as never)),
    logger: createLogger('test', { level: 'silent' }),
  });
  const clients = createClients(services, { address: `127.0.0.1:${server.port}` });
  return {
    clients,
    calls,
    answers,
    async stop() {
      for (const client of Object.values(clients)) client.close();
      await server.shutdown(1_000);
    },
  };
}

/** One service as startFakeGrpcServices serves them, and its client. */
export async function startFakeGrpcService<S extends GenServiceMethods>(
  service: GenService<S>,
  defaultAnswer: (method: string) => Answer,
) {
  const { clients, ...fake } = await startFakeGrpcServices({ service }, defaultAnswer);
  return { ...fake, client: clients.service };
}
