import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

const here = new URL('.', import.meta.url).pathname;

/** The V8 flags `pnpm start` gives the gateway (the root package.json's start script): the bench's gateways run as deployed ones do. */
export const gatewayNodeOptions: string[] = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(' ')
  .filter((word) => word.startsWith('--max-'));

export interface Started {
  port: number;
  /** Everything the process wrote before it said it was listening. */
  output: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs one of the bench servers in its own process, so load generator and server do not share an event loop. */
export function startServer(script: string, args: string[] = [], env: Record<string, string> = {}, nodeOptions: string[] = []): Promise<Started> {
  const child = spawnScript(script, args, env, nodeOptions);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) {
        resolve({
          port: Number(match[1]),
          output,
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

/** Runs a bench script that does one job and exits (not a server): its standard output, or an error if it failed. */
export function runScript(script: string, env: Record<string, string> = {}, nodeOptions: string[] = []): Promise<string> {
  const child = spawnScript(script, [], env, nodeOptions);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${script} exited with ${code}: ${output}`))));
  });
}

function spawnScript(script: string, args: string[], env: Record<string, string>, nodeOptions: string[]): ChildProcess {
  return spawn(process.execPath, [...nodeOptions, '--conditions=predgate-source', '--import', 'tsx', `${here}${script}`, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}
