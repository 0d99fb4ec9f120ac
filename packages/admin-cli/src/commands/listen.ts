import type { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../command-context.js';
import { CliError } from '../errors.js';
import { isRecord } from '../http.js';
import { parseEventName, parsePage } from '../options.js';
import { readSandboxFile, sandboxFilePath } from '../sandbox/sandbox-file.js';

/**
 * `corridor listen` (decision 0034): the business's sandbox webhooks, forwarded to a local URL as
 * the platform sends them (same raw body, headers notification signed), each local answer reported
 * back as a `listen` attempt. Reads the gateway's Server-Sent Events with fetch streaming; resumes
 * with Last-Event-ID after any drop (a gateway restart), so nothing is missed.
 */

interface ListenFlags {
  forwardTo: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  maxEvents?: number;
  untilEvent?: string;
}

/** One webhook of the stream (GET /api/external/webhook/listen's data). */
interface ListenedWebhook {
  delivery_id: string;
  event: string;
  body: string;
  headers: Record<string, string>;
}

/** A local handler gets as long as a registered URL does (seed 6.4 rule 6). */
const FORWARD_TIMEOUT_MS = 30_000;
/** A token is replaced this long before it expires, so no stream or report runs on a dead one. */
const TOKEN_MARGIN_MS = 60_000;
const BACKOFF_START_MS = 250;
const BACKOFF_MAX_MS = 10_000;

/** Server-Sent Events as the spec reads them: events end at a blank line; `:` lines are comments. */
export async function* sseEvents(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<{ id: string | undefined; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  let data: string[] = [];
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield { id, data: data.join('\n') };
        id = undefined;
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

function parseWebhook(data: string): ListenedWebhook | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    if (
      isRecord(parsed) &&
      typeof parsed.delivery_id === 'string' &&
      typeof parsed.event === 'string' &&
      typeof parsed.body === 'string' &&
      isRecord(parsed.headers)
    ) {
      return parsed as unknown as ListenedWebhook;
    }
  } catch {
    // reported below
  }
  return undefined;
}

export function registerListenCommand(program: Command, context: CommandContext): void {
  program
    .command('listen')
    .description('forward the sandbox business’s webhooks to a local URL (decision 0034)')
    .requiredOption('--forward-to <url>', 'where each webhook is POSTed, e.g. http://localhost:3000/hooks')
    .option('--base-url <url>', 'the public API; else $CORRIDOR_BASE_URL, .local/sandbox.json, http://127.0.0.1:8080')
    .option('--client-id <id>', 'else $CORRIDOR_CLIENT_ID, then .local/sandbox.json')
    .option('--client-secret <secret>', 'else $CORRIDOR_CLIENT_SECRET, then .local/sandbox.json')
    .option('--max-events <n>', 'exit (0) once n webhooks are forwarded and reported; else until Ctrl-C', parsePage)
    .option(
      '--until-event <event>',
      'exit (0) once a webhook of this event (e.g. collection.successful) is forwarded and reported',
      parseEventName,
    )
    .action(async (flags: ListenFlags) => {
      const { io } = context;
      let forwardTo: URL;
      try {
        forwardTo = new URL(flags.forwardTo);
      } catch {
        throw new CliError(`--forward-to must be a URL such as http://localhost:3000/hooks; got ${flags.forwardTo}`);
      }
      const sandbox = await readSandboxFile(sandboxFilePath(context.localDir)).catch(() => undefined);
      const baseUrl = (
        flags.baseUrl ??
        io.env.CORRIDOR_BASE_URL ??
        sandbox?.base_url ??
        'http://127.0.0.1:8080'
      ).replace(/\/+$/, '');
      const clientId = flags.clientId ?? io.env.CORRIDOR_CLIENT_ID ?? sandbox?.client_id;
      const clientSecret = flags.clientSecret ?? io.env.CORRIDOR_CLIENT_SECRET ?? sandbox?.client_secret;
      if (!clientId || !clientSecret) {
        throw new CliError(
          'no client credentials: pass --client-id and --client-secret, or set CORRIDOR_CLIENT_ID and CORRIDOR_CLIENT_SECRET',
        );
      }

      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);

      let token: { value: string; expiresAt: number } | undefined;
      const freshToken = async (): Promise<string> => {
        if (token && token.expiresAt - Date.now() > TOKEN_MARGIN_MS) return token.value;
        const response = await io.fetch(`${baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: clientSecret,
            scope: 'webhook:read',
          }).toString(),
          signal: AbortSignal.timeout(10_000),
        });
        const answer: unknown = await response.json().catch(() => undefined);
        if (response.status >= 500) throw new Error(`token: ${response.status}`);
        if (!response.ok || !isRecord(answer) || typeof answer.access_token !== 'string') {
          const message = isRecord(answer) && typeof answer.message === 'string' ? answer.message : '';
          throw new CliError(`token refused (${response.status}): ${message}`);
        }
        const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
        token = { value: answer.access_token, expiresAt: Date.now() + seconds * 1000 };
        return token.value;
      };

      /** The local answer, recorded as a listen attempt; retried under one key, so it is one attempt. */
      const report = async (deliveryId: string, result: Record<string, unknown>) => {
        const key = randomUUID();
        for (let attempt = 0; attempt < 3 && !stop.signal.aborted; attempt++) {
          try {
            const response = await io.fetch(
              `${baseUrl}/api/external/webhook/deliveries/${encodeURIComponent(deliveryId)}/listen-attempts`,
              {
                method: 'POST',
                headers: {
                  authorization: `Bearer ${await freshToken()}`,
                  'content-type': 'application/json',
                  'idempotency-key': key,
                },
                body: JSON.stringify(result),
                signal: AbortSignal.timeout(10_000),
              },
            );
            if (response.status < 500) {
              if (!response.ok)
                io.stderr(`could not report ${deliveryId}: ${response.status} ${await response.text()}\n`);
              return;
            }
          } catch {
            // the gateway is away: try again
          }
          await sleep(500 * 2 ** attempt, stop.signal);
        }
      };

      const forward = async (webhook: ListenedWebhook) => {
        const started = performance.now();
        let result: Record<string, unknown>;
        let shown: string;
        try {
          const response = await io.fetch(forwardTo.href, {
            method: 'POST',
            headers: webhook.headers,
            body: webhook.body,
            redirect: 'manual',
            signal: AbortSignal.any([AbortSignal.timeout(FORWARD_TIMEOUT_MS), stop.signal]),
          });
          const text = await response.text();
          const durationMs = Math.round(performance.now() - started);
          result = { status_code: response.status, duration_ms: durationMs, response_body: text.slice(0, 65_536) };
          shown = `${response.status} ${durationMs}ms`;
        } catch (error) {
          const durationMs = Math.round(performance.now() - started);
          const cause = (error as { cause?: { message?: string } }).cause?.message;
          const message = (cause ?? (error as Error).message).slice(0, 1000);
          result = { status_code: null, duration_ms: durationMs, error: message };
          shown = `failed ${durationMs}ms (${message})`;
        }
        io.stdout(`→ ${webhook.event} ${shown} [${webhook.delivery_id}]\n`);
        await report(webhook.delivery_id, result);
      };

      let lastEventId: string | undefined;
      let forwarded = 0;
      let backoff = BACKOFF_START_MS;
      let announced = false;
      try {
        while (!stop.signal.aborted) {
          // Reconnects a little before the token expires (the gateway ends the stream then anyway).
          const connection = new AbortController();
          const abortConnection = () => connection.abort();
          stop.signal.addEventListener('abort', abortConnection, { once: true });
          let renewal: NodeJS.Timeout | undefined;
          try {
            const bearer = await freshToken();
            if (token)
              renewal = setTimeout(abortConnection, Math.max(1_000, token.expiresAt - Date.now() - TOKEN_MARGIN_MS));
            const response = await io.fetch(`${baseUrl}/api/external/webhook/listen`, {
              headers: {
                authorization: `Bearer ${bearer}`,
                accept: 'text/event-stream',
                ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
              },
              signal: connection.signal,
            });
            if (response.status === 401) {
              token = undefined;
              throw new Error('token refused; getting a new one');
            }
            if (response.status >= 400 && response.status < 500 && response.status !== 429) {
              const text = await response.text();
              throw new CliError(`the listen stream was refused (${response.status}): ${text}`);
            }
            if (!response.ok || !response.body) throw new Error(`the gateway answered ${response.status}`);
            if (!announced) {
              io.stdout(`Ready! Forwarding ${baseUrl}'s webhooks to ${forwardTo.href} (Ctrl-C to quit)\n`);
              announced = true;
            }
            backoff = BACKOFF_START_MS;
            for await (const event of sseEvents(response.body)) {
              const webhook = parseWebhook(event.data);
              if (!webhook) io.stderr(`skipped an event that is not a webhook: ${event.data.slice(0, 200)}\n`);
              else await forward(webhook);
              // Only once forwarded and reported: a drop before then sends it again (at least once).
              if (event.id !== undefined) lastEventId = event.id;
              if (webhook && flags.maxEvents !== undefined && ++forwarded >= flags.maxEvents) stop.abort();
              if (webhook && webhook.event === flags.untilEvent) stop.abort();
              if (stop.signal.aborted) break;
            }
          } catch (error) {
            if (error instanceof CliError) throw error;
            if (stop.signal.aborted) break;
            if (!connection.signal.aborted) {
              io.stderr(`connection lost (${(error as Error).message}); reconnecting in ${backoff}ms\n`);
              await sleep(backoff, stop.signal);
              backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
            }
            continue;
          } finally {
            clearTimeout(renewal);
            stop.signal.removeEventListener('abort', abortConnection);
          }
          // The gateway ended the stream (it stopped, or the token expired): reconnect at once.
          await sleep(100, stop.signal);
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
