/** One field's parse: its typed value, or the problem in words ("must be at most 255 characters"). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

export const parsed = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const problem = (text: string): { ok: false; problem: string } => ({ ok: false, problem: text });

/** `owners`, 1, `email` → `owners.1.email`; an empty prefix gives the bare field. */
export function fieldPath(...segments: (string | number)[]): string {
  return segments.filter((segment) => segment !== '').join('.');
}

/**
 * A text as a message quotes it: at most 40 characters, so a 64 KiB value cannot swell the answer
 * (problems travel in gRPC trailers, whose size is bounded: a huge one would be a 500).
 */
export function quoted(text: string): string {
  const characters = [...text];
  return JSON.stringify(characters.length > 40 ? `${characters.slice(0, 40).join('')}…` : text);
}
