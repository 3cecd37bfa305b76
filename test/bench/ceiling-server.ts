// The ceiling: a bare node:http server answering every request with the same
// bytes the gateway answers, so the gap between the two is the gateway's cost.
// Given a folder instead of a file, it answers with each file of the folder in
// turn: the gateway's answers to varied requests, of their sizes, each in the
// encoding its name ends with (`0001.br`, `0002.identity`).
import { createServer } from 'node:http';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The encoding is the gateway's own for these bytes (gzip, br) when the target asked for one.
const [bodyPath, contentType = 'application/json; charset=utf-8', contentEncoding] = process.argv.slice(2);
const answers = statSync(bodyPath!).isDirectory()
  ? readdirSync(bodyPath!)
      .sort()
      .map((name) => ({ body: readFileSync(join(bodyPath!, name)), encoding: name.split('.').pop() }))
  : [{ body: readFileSync(bodyPath!), encoding: contentEncoding }];
const bodies = answers.map((answer) => answer.body);
const headers = answers.map(({ body, encoding }) => ({
  'content-type': contentType,
  'content-length': body.length,
  ...(encoding && encoding !== 'identity' ? { 'content-encoding': encoding, vary: 'accept-encoding' } : {}),
}));
let next = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const index = next;
    next = (next + 1) % bodies.length;
    response.writeHead(200, headers[index]);
    response.end(bodies[index]);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
