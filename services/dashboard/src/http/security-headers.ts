import type { RequestHandler } from 'express';

/**
 * No inline script or style anywhere: the one stylesheet and the one script are files of this
 * service, so an injected tag can neither run nor restyle a page (the QR code is a data: image).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** On every answer, assets and errors included; pages also get Cache-Control: no-store (render.tsx). */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: under no-referrer browsers send `Origin: null` with every form POST
  // (Fetch, "append a request Origin header"), which refuseForgedPosts rightly refuses. Other sites
  // still get no Referer, so no link's token leaves the dashboard.
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
};
