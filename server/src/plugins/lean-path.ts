import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from '@hapi/hapi';
import { isPredgateError } from '@predgate/core';
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { maxJsonDepth, nestsDeeperThan } from '../json-depth.js';
import { headerKey } from '../keys/presented-key.js';
import { rateLimitHeaders } from '../keys/request-budget.js';
import { refusalOf } from './errors.js';
import { answerHeaders, answeredHere } from './json-answers.js';
import type { Negotiated, StoredAnswer } from './json-answers.js';
import type { Admitted } from '../keys/request-gate.js';

/** A listener of Node's `request` event (hapi's, which the lean path hands what it does not answer). */
type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A GET, or a POST with a small JSON body, as a route reads it, before anything is checked but its form. */
export interface LeanRequest {
  readonly method: 'get' | 'post';
  /** A POST's body, parsed as hapi parses it (undefined for a GET). */
  readonly body?: unknown;
  /** The path, exactly as sent (no percent-escapes: those are hapi's to decode). */
  readonly path: string;
  /** The query string read as hapi reads it: a key given twice is an array. */
  readonly query: Record<string, string | string[]>;
  /** The query string as sent, `?` included ('' without one). */
  readonly sentQuery: string;
  readonly negotiated: Negotiated;
  /** The address the request came from. */
  readonly address: string;
}

/** A JSON answer and the headers of its own (where its data came from). */
export interface LeanAnswer {
  answer: StoredAnswer;
  headers: Record<string, string>;
}

/** A request (a GET, or a POST with a small JSON body) a route found valid: everything that can refuse it, but the key and its budget, is checked. */
export interface LeanCall {
  /** Its metric labels, as hapi's route would count it. */
  labels: { exchange: string; method: string };
  /** Which error body its failures take. */
  envelope: 'pass-through' | 'router';
  /** The venue its failures name, if any. */
  exchange?: string;
  /** Its answer, for the key `keyId` let in; a failure is answered in the route's envelope. */
  answer(keyId: string): Promise<LeanAnswer>;
}

/**
 * A route's lean form: the call a request asks, when its path is the route's
 * and everything about it is valid; otherwise undefined, and hapi answers it
 * (refusals included). It must not change anything: a request it reads may
 * still go on to hapi.
 */
export type LeanRoute = (request: LeanRequest) => LeanCall | undefined;

declare module '@hapi/hapi' {
  interface PluginProperties {
    'predgate-lean-path': {
      /** Adds the lean form of routes whose paths start with `prefix`; it is given POSTs too when `takesPost`. */
      route(prefix: string, route: LeanRoute, options?: { takesPost?: boolean }): void;
    };
  }
}

/** Request headers that change what hapi would answer or how it reads the request: such requests always go to hapi. */
const handledByHapi = ['transfer-encoding', 'content-encoding', 'expect', 'range', 'if-range'] as const;

/**
 * The largest POST body read here. A call's arguments are a few hundred bytes;
 * a longer body (hapi takes up to the route's own bound, and refuses past it)
 * is left to hapi, as is one that did not arrive with its headers.
 */
const maxLeanBodyBytes = 16 * 1024;

/** The JSON content types read here; hapi's payload parser reads any other (or refuses it) as it always has. */
const jsonTypes = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * Text hapi's JSON parser looks at twice: it refuses a `__proto__` key,
 * written plainly or with escapes. A body holding either goes to hapi, so the
 * refusal is hapi's own.
 */
const suspectJson = /__proto__|\\u/;

/**
 * Valid GETs the gateway answers most (Router pages and events, catalog-served
 * and live pass-through calls), and the same pass-through calls as POSTs with
 * a small JSON body (as pmxt clients send them), answered straight from Node's listener, in
 * front of hapi: no hapi request, lifecycle, route table or response
 * transmit, which on a small answer are a large part of the gateway's cost.
 *
 * Each route's lean form reads and validates the request as its hapi route
 * does and calls the same answer code; what is done here is done once for
 * every answer, as hapi's plugins do it: the request gate (API key, then its
 * budget), the budget and answer headers, the error envelope, the request
 * metrics and the failed request's log line. A POST's body is read here only
 * when it came whole with its headers and is JSON hapi's parser reads the
 * same way. A request a route's lean form does not take (another verb, a
 * body it cannot read here, an invalid argument, a path hapi must decode)
 * and a request the gate refuses go on to hapi as they came, body included
 * (the gate remembers the request, so its budget is charged once). With
 * debug logging, where hapi logs every request, the lean path stands aside.
 */
export const leanPathPlugin: Plugin<{ container: DependencyContainer; logger: Logger }> = {
  name: 'predgate-lean-path',
  dependencies: ['predgate-json-response', 'predgate-request-logging'],
  register(server, { container, logger }) {
    const gate = container.resolve(tokens.requestGate);
    const metrics = container.resolve(tokens.metrics);
    const json = server.plugins['predgate-json-response'].answers;
    const logAnswered = server.plugins['predgate-request-logging'].logAnswered;
    const routes: Array<{ prefix: string; route: LeanRoute; takesPost: boolean }> = [];
    server.expose('route', (prefix: string, route: LeanRoute, options?: { takesPost?: boolean }) => {
      routes.push({ prefix, route, takesPost: options?.takesPost ?? false });
    });
    let answered = 0;

    const answer = async (req: IncomingMessage, res: ServerResponse, call: LeanCall, keyId: string, budget: Array<[string, string]>, started: number) => {
      let status = 200;
      try {
        const { answer: sent, headers } = await call.answer(keyId);
        // hapi offers byte ranges on a GET's answer only.
        const all = req.method === 'GET' ? answerHeaders(sent) : answerHeaders(sent).filter(([name]) => name !== 'accept-ranges');
        for (const name in headers) all.push([name, headers[name]!]);
        for (const header of budget) all.push(header);
        // Given whole to writeHead: no header set one by one (a failure's are, so its log line shows them).
        res.writeHead(200, all).end(sent.body);
      } catch (error) {
        const requestId = `${Date.now()}:${server.info.id}:lean-${(answered += 1)}`;
        const refusal = refusalOf(error, { exchange: call.exchange ?? null, requestId, router: call.envelope === 'router' });
        if (!isPredgateError(error)) logger.error({ err: error, requestId }, 'unexpected error');
        status = refusal.status;
        const body = Buffer.from(JSON.stringify(refusal.payload));
        const headers: Array<[string, string]> = [
          ...budget,
          ['content-type', 'application/json; charset=utf-8'],
          ['cache-control', 'no-cache'],
          ['content-length', String(body.length)],
          ...refusal.headers,
        ];
        for (const [name, value] of headers) res.setHeader(name, value);
        res.writeHead(status).end(body);
        const path = (req.url ?? '').split('?', 1)[0]!;
        logAnswered({ requestId, method: req.method!.toLowerCase(), path }, res, Math.round(performance.now() - started));
      }
      metrics.recordRequest(call.labels.exchange, call.labels.method, status, (performance.now() - started) / 1000);
    };

    // Requests answered here, until their answers are sent. hapi ends every connection it is not answering on
    // when it stops: answers still being made here are waited for first, and new requests go to hapi meanwhile.
    // A count, not a set of promises: one more promise per request only to be told when it settles costs more.
    let inFlight = 0;
    let drained: (() => void) | undefined;
    let stopping = false;
    server.ext('onPreStop', async () => {
      stopping = true;
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
    });

    /** Lets `req` in through the request gate and answers it; a request the gate refuses goes to hapi. */
    const admitAndAnswer = async (req: IncomingMessage, res: ServerResponse, call: LeanCall, started: number, next: Listener) => {
      inFlight += 1;
      try {
        let admitted: Admitted;
        try {
          admitted = await gate.admit(headerKey(req.headers), req);
        } catch {
          // hapi refuses it, with the refusal the gate already gave (the budget is not charged twice).
          return next(req, res);
        }
        await answer(req, res, call, admitted.key.id, admitted.budget ? rateLimitHeaders(admitted.budget) : [], started);
      } catch (error) {
        // Sending the answer or the refusal failed (the client left mid-way): nothing more can be sent.
        logger.error({ err: error }, 'lean path could not answer');
        res.destroy();
      } finally {
        inFlight -= 1;
        if (inFlight === 0) drained?.();
      }
    };

    // Put in front once every plugin is registered.
    server.ext('onPreStart', () => {
      stopping = false;
      const [next, ...others] = server.listener.listeners('request') as Listener[];
      if (!next || others.length > 0) throw new Error('the lean path expects one request listener: hapi');
      server.listener.removeListener('request', next);
      /** Answers `req` here when a route takes it, through the request gate; otherwise hands it to hapi. */
      const serve = (req: IncomingMessage, res: ServerResponse, started: number, body?: unknown) => {
        const request = readLeanRequest(req, json.negotiate(req.headers['accept-encoding']), body);
        const taking = request && routes.find(({ prefix, takesPost }) => request.path.startsWith(prefix) && (takesPost || request.method === 'get'));
        const call = taking?.route(request!);
        if (!call) return next(req, res);
        void admitAndAnswer(req, res, call, started, next);
      };
      server.listener.on('request', (req: IncomingMessage, res: ServerResponse) => {
        if (stopping || logger.isLevelEnabled('debug') || handledByHapi.some((header) => req.headers[header] !== undefined)) return next(req, res);
        const started = performance.now();
        if (req.method === 'GET' && req.headers['content-length'] === undefined) return serve(req, res, started);
        const length = Number(req.headers['content-length']);
        if (req.method !== 'POST' || !(length > 0 && length <= maxLeanBodyBytes) || !jsonTypes.has(req.headers['content-type']?.toLowerCase() ?? '')) {
          return next(req, res);
        }
        // The parser pushes a body that came in the same read as the headers right after this event: read it
        // then, and put it back, for hapi or for the stream's end. A body still arriving is left for hapi to read.
        queueMicrotask(() => {
          if (req.readableLength !== length) return next(req, res);
          const bytes = req.read() as Buffer;
          req.unshift(bytes);
          const body = parsedBody(bytes);
          if (body === undefined) return next(req, res);
          serve(req, res, started, body);
        });
      });
    });
  },
};

/** A POST body as hapi's parser would read it; undefined for one hapi reads differently or refuses (it answers those). */
function parsedBody(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  if (suspectJson.test(text)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return body === null || nestsDeeperThan(body, maxJsonDepth) ? undefined : body;
}

/** The request as routes read it; undefined for one only hapi reads right (escapes, a fragment, a coding hapi's encoder makes). */
function readLeanRequest(req: IncomingMessage, negotiated: Negotiated, body: unknown): LeanRequest | undefined {
  const url = req.url ?? '';
  if (!answeredHere(negotiated) || url.includes('#')) return undefined;
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  if (path.includes('%') || path.endsWith('/')) return undefined;
  const sentQuery = mark === -1 ? '' : url.slice(mark);
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  // Most calls come without a query string (pmxt clients POST): no parser for nothing.
  if (mark !== -1)
    for (const [key, value] of new URLSearchParams(sentQuery)) {
      const seen = query[key];
      query[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
  return { method: req.method === 'POST' ? 'post' : 'get', body, path, query, sentQuery, negotiated, address: req.socket.remoteAddress ?? '' };
}
