import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Attempt } from './model.js';
import type { UrlGuard } from './url-guard.js';

export interface SenderOptions {
  guard: UrlGuard;
  /** Longest an attempt may take, connection to last byte of the answer's head. */
  timeoutMs: number;
  /** Connections kept per receiver origin. */
  connections: number;
}

/** Of a receiver's answer only this much is read (and then dropped): its status is what counts. */
const maxAnswerBytes = 16 * 1024;

/**
 * Posts signed notifications to receivers: connections pinned to addresses
 * the guard checked, no redirects followed, short timeouts, answers read
 * only up to a bound.
 */
export class WebhookSender {
  private readonly agent: Dispatcher;

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({
      connect: { lookup: options.guard.lookup, timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: options.connections,
      keepAliveTimeout: 10_000,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string, now: () => number): Promise<Attempt> {
    const at = now();
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      // The URL was checked when subscribed; checked again, since the operator's allowed ranges may have changed since.
      this.options.guard.checkUrl(url);
      const answer = await request(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'predgate-webhooks' },
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await answer.body.dump({ limit: maxAnswerBytes }).catch(() => undefined);
      return { at, durationMs: durationMs(), status: answer.statusCode };
    } catch (error) {
      return { at, durationMs: durationMs(), error: describe(error) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function describe(error: unknown): string {
  const { code, message, name } = error as { code?: string; message?: string; name?: string };
  const text = name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' ? 'timed out' : (message ?? String(error));
  return (code && !text.includes(code) ? `${code}: ${text}` : text).slice(0, 300);
}
