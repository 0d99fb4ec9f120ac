import type { Request, Response } from 'express';

/** The value of one cookie of the request; undefined when absent or not URL-decodable. */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The dashboard's cookies: HttpOnly, SameSite=Lax, Path=/, and Secure with the __Host- prefix
 * (no Domain, so no sibling host can set or read them) unless the origin is plain-HTTP loopback.
 * No Max-Age: the browser drops them when it closes, the server ends sessions on its own clock.
 */
export class DashboardCookies {
  readonly session: string;
  /** The anonymous forms' CSRF token (sign-in, invitation, password reset), double-submitted. */
  readonly form: string;

  constructor(private readonly secure: boolean) {
    const prefix = secure ? '__Host-' : '';
    this.session = `${prefix}corridor_session`;
    this.form = `${prefix}corridor_form`;
  }

  set(res: Response, name: string, value: string): void {
    res.append('Set-Cookie', `${name}=${encodeURIComponent(value)}; ${this.attributes()}`);
  }

  clear(res: Response, name: string): void {
    res.append('Set-Cookie', `${name}=; Max-Age=0; ${this.attributes()}`);
  }

  private attributes(): string {
    return `Path=/; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
  }
}
