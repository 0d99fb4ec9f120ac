import type { Connection } from './connection.js';
import { jsonOrError, send, type Fetch } from './http.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The gateway's admin listener (DESIGN.md "Admin API"): bearer ADMIN_TOKEN, JSON both ways. */
export class AdminApi {
  constructor(
    private readonly connection: Connection,
    private readonly fetchImpl: Fetch,
  ) {}

  get adminUrl(): string {
    return this.connection.adminUrl;
  }

  async call(method: Method, path: string, body?: object): Promise<unknown> {
    const url = `${this.connection.adminUrl.replace(/\/+$/, '')}${path}`;
    const response = await send(this.fetchImpl, url, {
      method,
      headers: {
        authorization: `Bearer ${this.connection.adminToken}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return jsonOrError(response);
  }
}

/** Ids go into the path as one segment, whatever the operator typed. */
export const segment = (id: string) => encodeURIComponent(id);
