import type { Request } from 'express';

/** A urlencoded body's fields: express.urlencoded({ extended: false }) gives strings and string arrays. */
type FormBody = Record<string, string | string[] | undefined>;

function bodyOf(req: Request): FormBody {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null ? (body as FormBody) : {};
}

/** One text field; the last value when the field is repeated, '' when absent. */
export function textField(req: Request, name: string): string {
  const value = bodyOf(req)[name];
  if (Array.isArray(value)) return value.at(-1) ?? '';
  return value ?? '';
}

/** A field that may repeat (checkboxes): every value, in order. */
export function listField(req: Request, name: string): string[] {
  const value = bodyOf(req)[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** A query parameter as one string, '' when absent or repeated. */
export function queryText(req: Request, name: string): string {
  const value: unknown = req.query[name];
  return typeof value === 'string' ? value : '';
}
