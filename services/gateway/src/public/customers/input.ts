import type { DescField, DescMessage, MessageShape } from '@bufbuild/protobuf';
import { CustomerInputSchema, OwnerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { REFUSED_CUSTOMER_PROPERTIES, REFUSED_OWNER_PROPERTIES } from '@corridor/contracts/customer-words';
import { inputOfJson } from '@corridor/grpc';
import { FieldProblems, firstProblemMessage } from '@corridor/validation';
import { HttpError } from '../../http/errors.js';
import { requiredJsonObject } from '../../http/input.js';
import { CUSTOMER_FIELDS, OWNER_FIELDS, type FieldSpec } from './fields.js';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';

/**
 * A customer route's JSON body as its typed message of customer_input.proto (decision 0025). Only
 * JSON types and words are checked here, each problem named by its path (422 VALIDATION_FAILED); the
 * rules on values (required fields, fields of the other type, formats, consistency, locks) are
 * customer-kyb's, which reports all of them at once.
 */

/** Properties the API answers but never accepts, and where a platform sets them instead. */
const READ_ONLY: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map([
  [CustomerInputSchema.typeName, REFUSED_CUSTOMER_PROPERTIES],
  [OwnerInputSchema.typeName, REFUSED_OWNER_PROPERTIES],
]);

const ALL_CUSTOMER_FIELDS: Readonly<Record<string, FieldSpec>> = {
  ...CUSTOMER_FIELDS.business,
  ...CUSTOMER_FIELDS.individual,
};

/** What a data field must be, in the words customer-kyb uses for the same problem. */
function expectedOf(spec: FieldSpec | undefined): string | undefined {
  if (!spec) return undefined;
  if (spec.format === 'email') return 'an email address';
  if (spec.format === 'date') return 'a date as YYYY-MM-DD';
  if (spec.format === 'uri') return 'an http or https URI';
  if (spec.type === 'integer') return `a whole number of at least ${spec.minimum ?? 0}`;
  if (spec.type === 'number') return `a number from ${spec.minimum ?? 0} to ${spec.maximum ?? 100}`;
  // The only string enum that is no proto enum: assigned country codes.
  if (spec.type === 'string' && spec.enum) return 'an ISO 3166-1 alpha-2 country code';
  return undefined;
}

function expected(field: DescField): string | undefined {
  if (field.parent.typeName === CustomerInputSchema.typeName) {
    if (field.name === 'owners') return 'an array of owners';
    return expectedOf(ALL_CUSTOMER_FIELDS[field.name]);
  }
  if (field.parent.typeName === OwnerInputSchema.typeName) {
    if (field.name === 'id') return "the owner's id (a uuid)";
    return expectedOf(OWNER_FIELDS[field.name]);
  }
  return undefined;
}

function refused(message: DescMessage, key: string): string | undefined {
  const reasons = READ_ONLY.get(message.typeName);
  return reasons && Object.hasOwn(reasons, key) ? reasons[key] : undefined;
}

/** The body as `descriptor`: a JSON object is required (requiredJsonObject), then its types and words. */
export function readInput<Desc extends DescMessage>(descriptor: Desc, body: unknown): MessageShape<Desc> {
  const problems = new FieldProblems();
  const input = inputOfJson(descriptor, requiredJsonObject(body), {
    words: CUSTOMER_INPUT_WORDS,
    problems,
    expected,
    refused,
  });
  if (input === undefined || !problems.isEmpty) {
    const { errors } = problems;
    throw new HttpError(422, 'VALIDATION_FAILED', firstProblemMessage(errors), errors);
  }
  return input;
}
