/** A failure the operator can act on: its message is printed as is, and the CLI exits 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/** The admin API answered with an error body ({status: false, message, code, errors?}). */
export class AdminApiError extends CliError {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly code: string | undefined,
    /** Validation problems by field (422 only). */
    readonly fieldErrors: Record<string, string[]>,
  ) {
    super(message);
  }

  /** The API's message, then one line per invalid field. */
  describe(): string {
    const fields = Object.entries(this.fieldErrors).map(([field, problems]) => `\n  ${field}: ${problems.join('; ')}`);
    const code = this.code ? ` ${this.code}` : '';
    return `${this.message} (${this.httpStatus}${code})${fields.join('')}`;
  }
}
