// A venue that answers instantly with recorded payloads: Polymarket's CLOB
// book and Kalshi's market order book. Calling it directly and through the
// gateway shows what the gateway itself adds to a live call.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const adapters = new URL('../../adapters/', import.meta.url).pathname;
const answers: Array<[RegExp, Buffer]> = [
  [/^\/book\?token_id=\d+$/, readFileSync(`${adapters}polymarket/test/fixtures/payloads/orderbook.json`)],
  [/^\/trade-api\/v2\/markets\/[A-Z0-9-]+\/orderbook$/, readFileSync(`${adapters}kalshi/test/fixtures/payloads/kalshi/orderbook.json`)],
];
const server = createServer((request, response) => {
  request.resume();
  const body = answers.find(([path]) => path.test(request.url ?? ''))?.[1];
  if (!body) {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not recorded"}');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
