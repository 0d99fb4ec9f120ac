/**
 * Where a person goes back to after one of the gateway's own pages (the payer's /pay, the KYC
 * /verify): the business's https redirect_url with the outcome appended to the query it already
 * has, its fragment kept (seed 4.4). Anything but an absolute https URL is not followed.
 */
export function returnUrlWith(
  redirectUrl: string | undefined,
  outcome: Readonly<Record<string, string>>,
): string | undefined {
  if (!redirectUrl || !URL.canParse(redirectUrl)) return undefined;
  const url = new URL(redirectUrl);
  if (url.protocol !== 'https:') return undefined;
  const added = new URLSearchParams(outcome).toString();
  url.search = url.search ? `${url.search.slice(1)}&${added}` : added;
  return url.toString();
}
