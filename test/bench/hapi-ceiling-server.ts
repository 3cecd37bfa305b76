// A bare hapi route answering every request with the same bytes the gateway
// answers (already encoded where the gateway encoded them): the cost of hapi
// itself, without Predgate's auth, validation, logging and metrics.
import { readFileSync } from 'node:fs';
import Hapi from '@hapi/hapi';

const [bodyFile, contentType = 'application/json; charset=utf-8', contentEncoding] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const server = Hapi.server({ port: 0, host: '127.0.0.1', compression: false });
server.route({
  method: ['GET', 'POST'],
  path: '/{any*}',
  handler: (_request, h) => {
    const response = h.response(body).type(contentType);
    return contentEncoding ? response.header('content-encoding', contentEncoding).header('vary', 'accept-encoding') : response;
  },
});
await server.start();
process.stdout.write(`listening ${server.info.port}\n`);
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
