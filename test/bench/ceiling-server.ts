// The ceiling: a bare node:http server answering every request with the same
// bytes the gateway answers, so the gap between the two is the gateway's cost.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

// The encoding is the gateway's own for these bytes (gzip, br) when the target asked for one.
const [bodyFile, contentType = 'application/json; charset=utf-8', contentEncoding] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = {
  'content-type': contentType,
  'content-length': body.length,
  ...(contentEncoding ? { 'content-encoding': contentEncoding, vary: 'accept-encoding' } : {}),
};
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, headers);
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
