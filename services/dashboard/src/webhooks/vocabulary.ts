/** Reading notification's words (@corridor/grpc/notification-words) on the dashboard's pages. */

export const isWord = (words: readonly string[], value: string): boolean => words.includes(value);

/** A value notification sent, as its word; an unknown one shows as such rather than failing the page. */
export function wordOf<E extends number>(vocabulary: { toWord(value: E, what: string): string }, value: E): string {
  try {
    return vocabulary.toWord(value, 'value');
  } catch {
    return `unknown (${value})`;
  }
}
