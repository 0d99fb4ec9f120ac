import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import { CustomerInputSchema, OwnerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  CUSTOMER_INPUT_WORDS,
  REFUSED_CUSTOMER_PROPERTIES,
  REFUSED_OWNER_PROPERTIES,
} from '@corridor/contracts/customer-words';
import { invalidArgument } from '@corridor/grpc';
import { inputOfJson } from '@corridor/testing';
import { FieldProblems, firstProblemMessage } from '@corridor/validation';

/** The properties the gateway refuses as read-only, with its reasons. */
function refused(message: DescMessage, key: string): string | undefined {
  const reasons =
    message.typeName === CustomerInputSchema.typeName
      ? REFUSED_CUSTOMER_PROPERTIES
      : message.typeName === OwnerInputSchema.typeName
        ? REFUSED_OWNER_PROPERTIES
        : {};
  return Object.hasOwn(reasons, key) ? reasons[key] : undefined;
}

/**
 * A JSON body as the typed message the gateway sends customer-kyb (decision 0025), read as the
 * gateway reads it, so a spec writes the body a platform sends. A body the gateway refuses (a wrong
 * JSON type, an unknown property, a word outside its enum) never reaches customer-kyb: this throws
 * the gateway's answer instead, a 422 VALIDATION_FAILED naming its problems.
 */
export function typedBody<Desc extends DescMessage>(schema: Desc, json: Record<string, unknown>): MessageShape<Desc> {
  const problems = new FieldProblems();
  // As a platform sends it: JSON text, where an undefined property is omitted.
  const sent: unknown = JSON.parse(JSON.stringify(json));
  const body = inputOfJson(schema, sent, { words: CUSTOMER_INPUT_WORDS, problems, refused });
  if (!body) throw invalidArgument(firstProblemMessage(problems.errors), problems.errors, 'VALIDATION_FAILED');
  return body;
}

/**
 * `body` with `names` also sent as null: what a gRPC caller other than the gateway can send, as a
 * name the gateway refuses (unknown, read-only) has no field to be set in.
 */
export function withNulls<Body extends { nullFields: string[] }>(body: Body, ...names: string[]): Body {
  return { ...body, nullFields: [...body.nullFields, ...names] };
}
