import { createHash } from 'node:crypto';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/**
 * The shell of the gateway's server-rendered pages (the payer's, the person's verification page):
 * every value escaped, the page's one stylesheet inline and allowed by its hash, no Referer.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML content or a quoted attribute value. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);

/** The Content-Security-Policy source that allows this inline stylesheet and no other. */
export const styleSource = (style: string) => `'sha256-${createHash('sha256').update(style).digest('base64')}'`;

/** A whole page: `mainAttributes` (already escaped) go on <main>. */
export function htmlPage(style: string, title: string, body: string, mainAttributes = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main${mainAttributes}>
${body}
</main>
</body>
</html>
`;
}

/** A page that only tells the person where things stand: not found, try again, gone wrong. */
export const noticePage = (style: string, title: string, text: string) =>
  htmlPage(style, title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`);

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** An instant as a person reads it on a page: 21 Nov 2026, 09:00 UTC. */
export const pageTime = (timestamp: Timestamp) => `${DATE.format(timestampDate(timestamp))} UTC`;
