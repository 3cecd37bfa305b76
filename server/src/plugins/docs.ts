import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { mockExamples } from '../docs/examples.js';
import { openApiDocument } from '../docs/openapi.js';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The renderer's files served from our own origin, no CDN; only these names are served.
 * A Map, so a name such as `constructor` or `__proto__` finds nothing rather than an object's own machinery.
 */
const assets = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'application/javascript; charset=utf-8'],
]);

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Predgate API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/reference.js"></script>
</body>
</html>
`;

/** What `GET /` answers: where to go next. No key is needed and nothing in it is secret. */
const landing = {
  name: 'Predgate',
  description: 'One HTTP/JSON gateway over prediction-market venues. Every call but these links needs an API key (Authorization: Bearer <key>).',
  links: { docs: '/docs', openapi: '/openapi.json', health: '/health' },
};

const landingPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Predgate</title></head>
<body>
  <h1>Predgate</h1>
  <p>${landing.description.replace('<key>', '&lt;key&gt;')}</p>
  <ul>
    <li><a href="/docs">API reference</a> (/docs)</li>
    <li><a href="/openapi.json">OpenAPI document</a> (/openapi.json)</li>
    <li><a href="/health">Health</a> (/health)</li>
  </ul>
</body>
</html>
`;

// Kept out of the page so a strict content security policy needs no inline script.
const startScript = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'BaseLayout',
});
`;

/**
 * `GET /` (a landing: links to what follows), `GET /openapi.json` (the
 * document, derived from the method list and the installed venues) and
 * `GET /docs` (an API reference rendered from it, with a "try it" that sends
 * the API key the reader authorizes with). All are public: they describe the
 * API and hold no data; every call made from the page still needs a key.
 *
 * Building the document takes the event loop for a noticeable while (about a
 * second on a busy machine), so with `buildAtStart` it is built while the
 * server initializes, before it listens, and no request ever waits for it.
 * Otherwise (tests that never read it) the first request builds it.
 */
export const docsPlugin: Plugin<{ container: DependencyContainer; buildAtStart: boolean }> = {
  name: 'predgate-docs',
  register(server, { container, buildAtStart }) {
    const venues = container.resolve(tokens.venues);
    let document: Promise<string> | undefined;
    // Built once every plugin has defined its routes (at start, or on the first request): the document reads them.
    const documentJson = () =>
      (document ??= mockExamples(venues.all()).then((examples) => JSON.stringify(openApiDocument(venues.all(), server.table(), examples))));
    if (buildAtStart) {
      server.ext('onPreStart', async () => {
        await documentJson();
      });
    }

    server.route([
      {
        method: 'GET',
        path: '/',
        options: { auth: false },
        // A browser gets a page of links, anything else the same links as JSON.
        handler: (request, h) =>
          /\btext\/html\b/.test(String(request.headers.accept ?? '')) ? h.response(landingPage).type('text/html; charset=utf-8') : h.response(landing),
      },
      {
        method: 'GET',
        path: '/openapi.json',
        options: { auth: false },
        handler: async (_request, h) => h.response(await documentJson()).type('application/json; charset=utf-8'),
      },
      { method: 'GET', path: '/docs', options: { auth: false }, handler: (_request, h) => h.response(page).type('text/html; charset=utf-8') },
      {
        method: 'GET',
        path: '/docs/reference.js',
        options: { auth: false },
        handler: (_request, h) => h.response(startScript).type('application/javascript; charset=utf-8'),
      },
      {
        method: 'GET',
        path: '/docs/assets/{file}',
        options: { auth: false },
        handler(request, h) {
          const { file } = request.params as { file: string };
          const type = assets.get(file);
          if (!type) throw new PredgateError('NOT_FOUND', `No documentation asset "${file}"`);
          return h
            .response(readFileSync(join(swaggerDir, file)))
            .type(type)
            .header('cache-control', 'public, max-age=86400');
        },
      },
    ]);
  },
};
