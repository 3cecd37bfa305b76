import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import type { Plugin, Request, ResponseObject } from '@hapi/hapi';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { headerKey } from '../keys/presented-key.js';
import { rateLimitHeaders } from '../keys/request-budget.js';
import { labelsFor } from './operations.js';

/** A cached answer as a later request of the same form finds it again. */
export interface ReplayableAnswer {
  /** The identity its bytes are kept under now; undefined when the cache must not answer. */
  identity(): string | undefined;
  /** Called for every request it answers. */
  answered(): void;
  /** Headers made afresh for each answer (how old its data is now), over those hapi sent the first time. */
  headers?(): Record<string, string>;
}

/** The largest body a replayed request may have: forms longer than this are not kept. */
const maxFormBytes = 16 * 1024;
/** Request headers that change what hapi would answer or how it reads the body: such requests always go to hapi. */
const handledByHapi = ['transfer-encoding', 'content-encoding', 'expect', 'range', 'if-range'] as const;

const replayableAnswers = new WeakMap<Request, ReplayableAnswer>();

/** Marks a request as answered from the stored-answer cache, so a later one of the same form can be replayed. */
export function markReplayable(request: Request, answer: ReplayableAnswer): void {
  replayableAnswers.set(request, answer);
}

interface Remembered {
  answer: ReplayableAnswer;
  /** The request's encoding as hapi negotiated it, and the coding hapi sent the answer in (`identity`: none). */
  encoding: string;
  sentAs: string;
  /**
   * The headers hapi sent, less `content-length`: the bytes change with the catalog, the headers do not.
   * Set one by one, each is checked once, not again when the head is written (as a `writeHead` object would be).
   */
  headers: Array<[string, OutgoingHttpHeader]>;
  labels: { exchange: string; method: string };
}

/**
 * Requests hapi answered from the stored-answer cache are answered again,
 * when the same request comes back, straight from Node's listener: no hapi
 * request, lifecycle or payload parser for an answer that is already bytes.
 * On a small cached answer those are most of the gateway's cost.
 *
 * A request is the same when its method, URL, `accept-encoding`,
 * `content-type` and body are byte for byte the same as one hapi answered
 * (so it passed the same routing and validation); its status and headers are
 * hapi's. Every request passes the same request gate as hapi's routes (the
 * API key checked, the budget charged) and is counted by the same metrics.
 * Whatever the lane does not answer (a bad key, a spent budget, a stale
 * venue, a page not yet kept for this catalog generation, a body still
 * arriving) goes on to hapi as it came. With debug logging, where hapi logs
 * every request, the lane stands aside.
 */
export const answerReplayPlugin: Plugin<{ container: DependencyContainer; logger: Logger }> = {
  name: 'predgate-answer-replay',
  dependencies: ['predgate-json-response'],
  register(server, { container, logger }) {
    const gate = container.resolve(tokens.requestGate);
    const metrics = container.resolve(tokens.metrics);
    const venues = container.resolve(tokens.venues);
    const methods = container.resolve(tokens.methods);
    const json = server.plugins['predgate-json-response'].answers;
    const remembered = new LRUCache<string, Remembered>({
      maxSize: 4 * 1024 * 1024,
      maxEntrySize: maxFormBytes + 8 * 1024,
      sizeCalculation: (_entry, form) => form.length,
    });
    // The form of each request handed to hapi, so it can be remembered if hapi answers it from the cache.
    const forms = new WeakMap<IncomingMessage, string>();

    const [hapiDispatch, ...others] = server.listener.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    if (!hapiDispatch || others.length > 0) throw new Error('answer replay expects hapi as the only request listener');
    const toHapi = (req: IncomingMessage, res: ServerResponse, form?: string) => {
      if (form !== undefined) forms.set(req, form);
      hapiDispatch(req, res);
    };

    const replay = (req: IncomingMessage, res: ServerResponse, body: string, started: number) => {
      const form = `${req.method} ${req.url}\n${req.headers['accept-encoding'] ?? ''}\n${req.headers['content-type'] ?? ''}\n${body}`;
      const known = remembered.get(form);
      const identity = known?.answer.identity();
      const stored = identity === undefined ? undefined : json.cached(identity, { encoding: known!.encoding, takesGzip: known!.sentAs === 'gzip' });
      // A new generation's page may be sent in another coding than the headers hapi sent for the last one.
      const bytes = stored?.sentAs === known?.sentAs ? stored?.body : undefined;
      if (!bytes) return toHapi(req, res, form);
      gate.admit(headerKey(req.headers), req).then(
        ({ budget }) => {
          for (const [name, value] of known!.headers) res.setHeader(name, value);
          if (budget) for (const [name, value] of rateLimitHeaders(budget)) res.setHeader(name, value);
          for (const [name, value] of Object.entries(known!.answer.headers?.() ?? {})) res.setHeader(name, value);
          res.setHeader('content-length', bytes.length);
          res.writeHead(200);
          res.end(bytes);
          known!.answer.answered();
          metrics.recordRequest(known!.labels.exchange, known!.labels.method, 200, (performance.now() - started) / 1000);
        },
        // hapi refuses it, with the refusal the gate already gave (the budget is not charged twice).
        () => toHapi(req, res),
      );
    };

    server.listener.removeListener('request', hapiDispatch);
    server.listener.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const length = Number(req.headers['content-length'] ?? 0);
      if (!(req.method === 'GET' || req.method === 'POST') || !(length <= maxFormBytes) || logger.isLevelEnabled('debug')) {
        return toHapi(req, res);
      }
      if (handledByHapi.some((header) => req.headers[header] !== undefined)) return toHapi(req, res);
      const started = performance.now();
      if (length === 0) return replay(req, res, '', started);
      // The parser pushes a body that came in the same read as the headers right after this event: read it
      // then, and put it back for hapi. A body still arriving is left for hapi to read.
      queueMicrotask(() => {
        if (req.readableLength !== length) return toHapi(req, res);
        const body = req.read() as Buffer;
        req.unshift(body);
        replay(req, res, body.toString('latin1'), started);
      });
    });

    server.events.on('response', (request: Request) => {
      const answer = replayableAnswers.get(request);
      const form = forms.get(request.raw.req);
      const response = request.response as ResponseObject | null;
      if (!answer || form === undefined || response?.statusCode !== 200) return;
      const { 'content-length': _length, ...headers } = request.raw.res.getHeaders();
      const coding = headers['content-encoding'];
      remembered.set(form, {
        answer,
        encoding: request.info.acceptEncoding,
        sentAs: typeof coding === 'string' ? coding : 'identity',
        // The budget headers were this request's; a replay sends its own.
        headers: Object.entries(headers).filter((entry): entry is [string, OutgoingHttpHeader] => entry[1] !== undefined && !entry[0].startsWith('ratelimit-')),
        labels: labelsFor(request, venues, methods),
      });
    });
  },
};
