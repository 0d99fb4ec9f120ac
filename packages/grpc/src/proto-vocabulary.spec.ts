import { FeatureSet_FieldPresence, FeatureSet_FieldPresenceSchema } from '@bufbuild/protobuf/wkt';
import { protoVocabulary } from './proto-vocabulary.js';

/** A proto enum from the well-known types: FIELD_PRESENCE_UNKNOWN (0), EXPLICIT, IMPLICIT, LEGACY_REQUIRED. */
const PRESENCE = FeatureSet_FieldPresenceSchema;

describe('protoVocabulary: a proto enum’s public words (decision 0026)', () => {
  it('spells each value but the zero one in capitals or lower case, in the proto’s order', () => {
    expect(protoVocabulary(PRESENCE, 'upper', 'a service').words).toEqual(['EXPLICIT', 'IMPLICIT', 'LEGACY_REQUIRED']);
    const lower = protoVocabulary(PRESENCE, 'lower', 'a service');
    expect(lower.toProto('legacy_required')).toBe(FeatureSet_FieldPresence.LEGACY_REQUIRED);
    expect(lower.toWord(FeatureSet_FieldPresence.IMPLICIT, 'presence')).toBe('implicit');
  });

  it('takes words whose dots read as underscores, in the proto’s order whatever the order given', () => {
    const dotted = protoVocabulary(PRESENCE, ['implicit', 'legacy.required', 'explicit'], 'a service');
    expect(dotted.words).toEqual(['explicit', 'implicit', 'legacy.required']);
    expect(dotted.toProto('legacy.required')).toBe(FeatureSet_FieldPresence.LEGACY_REQUIRED);
    expect(() => dotted.toProto('legacy_required')).toThrow(RangeError);
  });

  it.each([
    ['a word naming no value', ['explicit', 'implicit', 'legacy.required', 'inferred'], /inferred names no value/],
    ['two words for one value', ['explicit', 'implicit', 'legacy.required', 'legacy_required'], /name one/],
    ['a value without a word', ['explicit', 'implicit'], /without a word: LEGACY_REQUIRED/],
  ])('refuses %s when built, not when first used', (_case, words, problem) => {
    expect(() => protoVocabulary(PRESENCE, words, 'a service')).toThrow(problem);
  });

  it('names the sender of a value it does not know, and never has a word for the zero value', () => {
    const vocabulary = protoVocabulary(PRESENCE, 'lower', 'notification');
    expect(() => vocabulary.toWord(0, 'status')).toThrow(
      'notification sent status 0, not a google.protobuf.FeatureSet.FieldPresence word',
    );
    expect(() => vocabulary.toProto('field_presence_unknown')).toThrow(RangeError);
  });
});
