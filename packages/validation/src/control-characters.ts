/** One character no text field may hold; see hasControlCharacter. */
// eslint-disable-next-line no-control-regex -- the point: the characters no text field may hold
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** The problem of a text holding one (decision 0019), in the same words wherever it is found. */
export const CONTROL_PROBLEM =
  'must not contain control characters (U+0000 to U+001F but tab, line feed and carriage return)';

/**
 * Whether a text holds a character no text field may hold: C0 controls but tab, line feed and
 * carriage return (a NUL cannot even be stored in PostgreSQL text). The gateway refuses them at the
 * edge; a service refuses them again where it stores text.
 */
export const hasControlCharacter = (text: string): boolean => CONTROL_CHARACTER.test(text);
