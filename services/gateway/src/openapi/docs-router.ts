import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type RequestHandler } from 'express';
import { openApiDocument, type DocumentOptions } from './document.js';

const DOCUMENT_PATH = '/api/external/openapi.json';

/** Swagger UI is served from its npm package by the gateway itself: the page works offline. */
const swaggerUiDirectory = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));

/** Only what the page loads; the package's own index.html and initializer point at a remote demo API. */
const SWAGGER_UI_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

const onlySwaggerUiAssets: RequestHandler = (req, _res, next) => {
  if (SWAGGER_UI_ASSETS.has(req.path.slice(1))) next();
  else next('router');
};

// Swagger UI sets inline styles; everything else comes from this origin.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Corridor API</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="/docs/assets/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/swagger-initializer.js"></script>
  </body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online validator.
const INITIALIZER = `window.ui = SwaggerUIBundle({
  url: '${DOCUMENT_PATH}',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
});
`;

/** GET /api/external/openapi.json and the /docs page rendering it; no token needed for either. */
export function apiDocumentationRouter(options: DocumentOptions): Router {
  const router = Router();
  const document = JSON.stringify(openApiDocument(options));
  router.get(DOCUMENT_PATH, (_req, res) => void res.type('application/json').send(document));
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.type('html').send(PAGE);
  });
  router.get('/docs/swagger-initializer.js', (_req, res) => void res.type('text/javascript').send(INITIALIZER));
  router.use('/docs/assets', onlySwaggerUiAssets, express.static(swaggerUiDirectory, { index: false }));
  return router;
}
