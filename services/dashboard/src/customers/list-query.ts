import type { ProtoVocabulary } from '@corridor/grpc';
import type { Request } from 'express';

/**
 * A list page's GET query as the filter form sends it: an empty field means "any", a repeated
 * parameter or a value outside its words is a problem the page names (422), never a call with a
 * guess. Parameters the list does not read (a stale `notice`) are ignored, as a browser form sends.
 */
export class ListQuery {
  readonly values = new Map<string, string>();
  readonly problems = new Map<string, string>();

  constructor(req: Request, names: readonly string[]) {
    for (const name of names) {
      const value: unknown = req.query[name];
      if (value === undefined) continue;
      if (typeof value !== 'string') {
        this.problems.set(name, `${name} is given more than once`);
        continue;
      }
      // The cursor is opaque and is passed as returned; typed text loses its stray spaces.
      const given = name === 'cursor' ? value : value.trim();
      if (given !== '') this.values.set(name, given);
    }
  }

  /** A text filter, at most `maxLength` characters (the API's field limits). */
  text(name: string, maxLength: number): string | undefined {
    const value = this.values.get(name);
    if (value !== undefined && value.length > maxLength) {
      this.problems.set(name, `${name} must be at most ${maxLength} characters`);
      return undefined;
    }
    return value;
  }

  /** A filter holding one of an enum's public words, as its proto value. */
  word<E extends number>(name: string, vocabulary: ProtoVocabulary<E>): E | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    if (!vocabulary.words.includes(value)) {
      this.problems.set(name, `${name} must be one of ${vocabulary.words.join(', ')}`);
      return undefined;
    }
    return vocabulary.toProto(value);
  }

  /** A filter that must pass `check`, else `problem`. */
  checked(name: string, check: (value: string) => boolean, problem: string): string | undefined {
    const value = this.values.get(name);
    if (value !== undefined && !check(value)) {
      this.problems.set(name, `${name} ${problem}`);
      return undefined;
    }
    return value;
  }

  /** Every problem in one sentence per parameter, for the error summary. */
  get problem(): string | undefined {
    return this.problems.size === 0 ? undefined : [...this.problems.values()].join('. ') + '.';
  }

  /** The filters as given (without the cursor), to carry into page links. */
  filters(): [string, string][] {
    return [...this.values].filter(([name]) => name !== 'cursor');
  }
}

/** `path` with the filters and, when given, a cursor: the "Next page" / "Previous page" links. */
export function pageHref(path: string, filters: readonly [string, string][], cursor?: string): string {
  const params = new URLSearchParams([...filters, ...(cursor ? [['cursor', cursor] as [string, string]] : [])]);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
