import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethod,
  type DescService,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/** The unary methods of a generated service, keyed by their local (camelCase) name. */
export type UnaryMethods<S extends GenServiceMethods> = {
  [K in keyof S as S[K]['methodKind'] extends 'unary' ? K : never]: S[K];
};

export type MethodInput<M> = M extends { input: infer I extends DescMessage } ? I : never;
export type MethodOutput<M> = M extends { output: infer O extends DescMessage } ? O : never;
export type RequestOf<M> = MessageShape<MethodInput<M>>;
export type RequestInitOf<M> = MessageInitShape<MethodInput<M>>;
export type ResponseOf<M> = MessageShape<MethodOutput<M>>;
export type ResponseInitOf<M> = MessageInitShape<MethodOutput<M>>;

export type AnyService = GenService<GenServiceMethods>;
export type MethodsOf<S> = S extends GenService<infer M> ? M : never;

/** The encoded message as the Buffer grpc-js sends, without copying it (toBinary's array is the call's own). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function methodDefinition(method: DescMethod): MethodDefinition<unknown, unknown> {
  const { input, output } = method;
  return {
    path: `/${method.parent.typeName}/${method.name}`,
    originalName: method.localName,
    requestStream: method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming',
    responseStream: method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming',
    // create() returns a message unchanged and completes a plain init object, so callers may pass either.
    requestSerialize: (value) => asBuffer(toBinary(input, create(input, value as MessageInitShape<DescMessage>))),
    requestDeserialize: (bytes: Buffer) => fromBinary(input, bytes),
    responseSerialize: (value) => asBuffer(toBinary(output, create(output, value as MessageInitShape<DescMessage>))),
    responseDeserialize: (bytes: Buffer) => fromBinary(output, bytes),
  };
}

/**
 * The one adapter from a protobuf-es service descriptor to a grpc-js ServiceDefinition, used by
 * servers and clients alike: serialization always goes through the generated schemas.
 */
export function toServiceDefinition(service: DescService): ServiceDefinition {
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methods) definition[method.localName] = methodDefinition(method);
  return definition as ServiceDefinition;
}
