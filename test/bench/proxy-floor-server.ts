// The floor under a live call's added latency: a bare node:http server that
// forwards every request to one upstream (the fake venue) through a kept-alive
// undici pool and sends its answer back, with none of the gateway's work (no
// key, budget, validation, normalising or envelope). What it adds over calling
// the upstream directly is what any Node proxy adds on this machine.
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [upstream] = process.argv.slice(2);
if (!upstream) throw new Error('usage: proxy-floor-server.ts <upstream origin>');
const pool = new Pool(upstream, { connections: 8 });
const server = createServer((request, response) => {
  request.resume();
  pool
    .request({ method: 'GET', path: request.url ?? '/' })
    .then(async (answer) => {
      const body = Buffer.from(await answer.body.arrayBuffer());
      response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json'), 'content-length': body.length });
      response.end(body);
    })
    .catch((error: unknown) => {
      response.writeHead(502).end(String(error));
    });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.close().then(() => process.exit(0))));
