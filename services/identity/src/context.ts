/** What every identity use case knows about where it runs. */
export interface IdentityContext {
  environment: 'sandbox' | 'production';
  /** Topic of identity's events (with the environment's prefix). */
  topic: string;
  now: () => Date;
}
