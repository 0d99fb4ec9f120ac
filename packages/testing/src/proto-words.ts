import type { DescEnum } from '@bufbuild/protobuf';

/**
 * A proto enum's words spelled from its value names, the enum's prefix off (KYB_SCOPE_FULL is
 * "FULL"), in `casing`, UNSPECIFIED left out: written apart from @corridor/grpc's spelling, so a
 * spec can hold that spelling, or a hand-written word list, against the proto.
 */
export function protoEnumWords(descriptor: DescEnum, casing: 'upper' | 'lower'): string[] {
  const prefix = `${descriptor.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_`;
  return descriptor.values
    .filter((value) => value.number !== 0)
    .map((value) => value.name.slice(prefix.length))
    .map((word) => (casing === 'upper' ? word : word.toLowerCase()));
}
