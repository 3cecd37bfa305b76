import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** One line of a wrk request file: what `wrk-requests.lua` sends. */
export interface WrkRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** What wrk measured over one run; latencies in milliseconds. */
export interface WrkFigures {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  /** Bytes received per response, headers included. */
  meanBytes: number;
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  errors: number;
}

const script = new URL('./wrk-requests.lua', import.meta.url).pathname;

/**
 * Stops with a clear message when wrk is missing: the varied-request bench
 * needs a load generator that never decodes the bodies it receives, on the
 * same two cores as the servers it measures.
 */
export function requireWrk(): void {
  const found = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (found.error) {
    throw new Error(
      'wrk is not installed, and `pnpm bench cold` needs it (a C load generator that never decodes bodies): ' +
        'install it with `apt-get install -y wrk` (Debian, Ubuntu) or `brew install wrk` (macOS), then run the bench again',
    );
  }
}

/** Writes requests as `wrk-requests.lua` reads them, one a line. */
export function writeRequests(file: string, requests: readonly WrkRequest[]): void {
  for (const request of requests) {
    if (/[\t\n]/.test(request.path + (request.body ?? ''))) throw new Error(`a request line cannot hold a tab or newline: ${request.path}`);
  }
  writeFileSync(file, `${requests.map((request) => [request.method, request.path, ...(request.body ? [request.body] : [])].join('\t')).join('\n')}\n`);
}

/**
 * wrk cycling through the requests in `requestsFile` (from a random line on)
 * against `origin`: one wrk thread, so the load takes one core at most and
 * the requests go out in the file's order.
 */
export async function wrk(origin: string, requestsFile: string, headers: Record<string, string>, seconds: number, connections: number): Promise<WrkFigures> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(origin);
  const output = await new Promise<string>((resolve, reject) =>
    execFile('wrk', args, { env: { ...process.env, WRK_REQUESTS: requestsFile } }, (error, stdout, stderr) =>
      error ? reject(new Error(`wrk failed: ${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
  const line = /^wrk-figures (.*)$/m.exec(output);
  if (!line) throw new Error(`wrk wrote no figures:\n${output}`);
  const raw = JSON.parse(line[1]!) as Record<string, number>;
  const ms = (micros: number) => Math.round(micros) / 1000;
  return {
    requestsPerSecond: Math.round(raw.requests! / (raw.durationMicros! / 1e6)),
    requests: raw.requests!,
    p50: ms(raw.p50!),
    p90: ms(raw.p90!),
    p99: ms(raw.p99!),
    meanBytes: raw.requests! === 0 ? 0 : Math.round(raw.bytes! / raw.requests!),
    non2xx: raw.non2xx!,
    errors: raw.connectErrors! + raw.readErrors! + raw.writeErrors! + raw.timeouts!,
  };
}
