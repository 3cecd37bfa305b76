import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadInTurns } from './load.js';
import type { LoadFigures, LoadTarget } from './load.js';
import { startServer } from './processes.js';
import type { Started } from './processes.js';

export const pmxtToken = 'bench-token';
const here = new URL('.', import.meta.url).pathname;

/** One gateway call measured beside the baselines that bound it. */
export interface SideBySide {
  target: string;
  bytes: number;
  contentEncoding?: string;
  gateway: LoadFigures;
  oneConnection: LoadFigures;
  hapi: LoadFigures;
  node: LoadFigures;
  pmxt?: LoadFigures;
  /** Gateway req/s over the bare hapi route's, and over pmxt-core's. */
  ofHapi: number;
  ofPmxt?: number;
}

/**
 * A gateway call at 32 connections and at one, a bare hapi route and a bare
 * node:http server sending the gateway's exact bytes (encoded as the gateway
 * encoded them, so compression is not counted against the gateway only), and
 * pmxt-core's sidecar on the same call where it has one: measured in turns
 * (see `loadInTurns`), so each ratio compares figures of the same minutes.
 */
export async function sideBySide(target: LoadTarget, pmxtTarget?: LoadTarget): Promise<SideBySide> {
  const answer = await probe(target);
  if (pmxtTarget) await probe(pmxtTarget);
  const file = join(mkdtempSync(join(tmpdir(), 'predgate-bytes-')), 'body');
  writeFileSync(file, answer.bytes);
  const args = [file, 'application/json; charset=utf-8', ...(answer.contentEncoding ? [answer.contentEncoding] : [])];
  const hapiServer = await startServer('hapi-ceiling-server.ts', args);
  const nodeServer = await startServer('ceiling-server.ts', args);
  let figures: LoadFigures[];
  try {
    figures = await loadInTurns([
      { target },
      { target, seconds: Math.max(3, Number(process.env.BENCH_SECONDS ?? 10) / 2), connections: 1 },
      { target: beside(hapiServer, target, `bare hapi route, same ${answer.bytes.length} bytes`) },
      { target: beside(nodeServer, target, `node:http, same ${answer.bytes.length} bytes`) },
      ...(pmxtTarget ? [{ target: pmxtTarget }] : []),
    ]);
  } finally {
    await Promise.all([hapiServer.stop(), nodeServer.stop()]);
  }
  const [gateway, oneConnection, hapi, node, pmxt] = figures as [LoadFigures, LoadFigures, LoadFigures, LoadFigures, LoadFigures | undefined];
  // A figure counting error answers would flatter whoever answered them.
  for (const figures of [gateway, oneConnection, hapi, node, pmxt]) {
    if (figures && figures.non2xx > 0) throw new Error(`${figures.name} answered non-2xx ${figures.non2xx} times under load`);
  }
  return {
    target: target.name,
    bytes: answer.bytes.length,
    ...(answer.contentEncoding ? { contentEncoding: answer.contentEncoding } : {}),
    gateway,
    oneConnection,
    hapi,
    node,
    ...(pmxt ? { pmxt, ofPmxt: ratio(gateway.requestsPerSecond, pmxt.requestsPerSecond) } : {}),
    ofHapi: ratio(gateway.requestsPerSecond, hapi.requestsPerSecond),
  };
}

/** One request as the load will send it: its bytes and encoding, or an error when it is not a 200. */
async function probe(target: LoadTarget): Promise<{ bytes: Buffer; contentEncoding?: string }> {
  const answer = await request(target.url, {
    method: target.method ?? 'GET',
    body: target.body,
    headers: { 'content-type': 'application/json', ...target.headers },
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  if (answer.statusCode !== 200) throw new Error(`${target.name} answered ${answer.statusCode}: ${bytes.subarray(0, 300).toString()}`);
  return { bytes, contentEncoding: answer.headers['content-encoding'] as string | undefined };
}

function beside(server: Started, target: LoadTarget, name: string): LoadTarget {
  return { ...target, name, url: `http://127.0.0.1:${server.port}/` };
}

/** pmxt-core's sidecar from its own folder, installed there on first use (never a project dependency). */
export async function startPmxt(): Promise<Started> {
  const folder = `${here}pmxt`;
  if (!existsSync(`${folder}/node_modules/pmxt-core`)) {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: folder, stdio: 'inherit' });
  }
  return startServer('pmxt/server.mjs', [], { PMXT_TOKEN: pmxtToken });
}

export function ratio(a: number, b: number): number {
  return b === 0 ? 0 : Math.round((a / b) * 1000) / 1000;
}
