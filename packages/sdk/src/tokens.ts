import { CorridorError } from './errors.js';

export interface TokenSource {
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes, or unset to leave the choice to the server. */
  scope: string | undefined;
  tokenUrl: string;
  /** Sends the token request, with the client's retries. */
  send(request: Request): Promise<Response>;
  now(): number;
}

interface Token {
  value: string;
  /** When it stops being used: the server's expiry less a margin (ms since the epoch). */
  refreshAt: number;
}

/** At most this long before expiry a token is replaced (less for short-lived tokens: a tenth of their life). */
const REFRESH_MARGIN_MS = 60_000;

/**
 * Client-credentials access tokens (RFC 6749 4.4; Corridor has no refresh tokens): fetched on the
 * first call, reused until shortly before they expire, then fetched again. Concurrent callers share
 * one token request.
 */
export class AccessTokens {
  private token: Token | undefined;
  private pending: Promise<Token> | undefined;

  constructor(private readonly source: TokenSource) {}

  async current(): Promise<string> {
    if (this.token && this.source.now() < this.token.refreshAt) return this.token.value;
    this.pending ??= this.request().finally(() => (this.pending = undefined));
    this.token = await this.pending;
    return this.token.value;
  }

  /** Drops `value` (the server called it expired) so the next call fetches another. */
  invalidate(value: string): void {
    if (this.token?.value === value) this.token = undefined;
  }

  private async request(): Promise<Token> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.source.clientId,
      client_secret: this.source.clientSecret,
    });
    if (this.source.scope !== undefined) form.set('scope', this.source.scope);
    const requestedAt = this.source.now();
    const response = await this.source.send(
      new Request(this.source.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
      }),
    );
    // The token answer's own error (wrong secret, unknown scope), never a token that is not one.
    if (!response.ok) throw await CorridorError.of(response);
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw new CorridorError(
        response.status,
        'TOKEN_RESPONSE_INVALID',
        'the token answer has no access_token and expires_in',
      );
    }
    const lifetimeMs = body.expires_in * 1000;
    // From when it was asked for: the server's clock started no later than that.
    return {
      value: body.access_token,
      refreshAt: requestedAt + lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 10),
    };
  }
}
