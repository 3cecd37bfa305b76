import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** What the receiver does with one request: answer with a status, or hold it open and never answer. */
export type Answer = number | 'hang';

export interface Received {
  id: string;
  body: string;
  headers: Record<string, string>;
  /** The status it was answered with; `hang` when it was held. */
  answer: Answer;
}

/**
 * A webhook receiver on 127.0.0.1: every request recorded and answered as
 * `answer` says; `verifies` checks a request's signature.
 */
export class Receiver {
  readonly received: Received[] = [];
  /** Decides each answer; by default 204. */
  answer: (request: { id: string; kind: string; count: number }) => Answer = () => 204;
  secret = '';
  private server: Server | undefined;
  private readonly held = new Set<ServerResponse>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Ids answered with a 2xx, with how often each was. */
  acknowledged(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.received) if (typeof entry.answer === 'number' && entry.answer < 300) counts.set(entry.id, (counts.get(entry.id) ?? 0) + 1);
    return counts;
  }

  /** Whether a request's signature verifies, with the standardwebhooks library's own verifier and the subscription's secret. */
  verifies(entry: Received): boolean {
    try {
      new Webhook(this.secret).verify(entry.body, entry.headers);
      return true;
    } catch {
      return false;
    }
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops listening and drops held requests: the receiver is down. */
  async stop(): Promise<void> {
    for (const response of this.held) response.destroy();
    this.held.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const id = headers['webhook-id'] ?? '';
      const kind = (JSON.parse(body) as { type: string }).type;
      const answer = this.answer({ id, kind, count: this.received.filter((entry) => entry.id === id).length });
      this.received.push({ id, body, headers, answer });
      if (answer === 'hang') {
        this.held.add(response);
        return;
      }
      response.writeHead(answer).end();
    });
  }
}
