import { PredgateError } from '@predgate/core';
import type { Credentials, MethodRegistry, RoutedMethod } from '@predgate/core';
import type { Venue } from '../venues/venue.js';
import type { WatchTarget } from './hub.js';

/** One symbol of a watch: the shared upstream it reads and how this watcher sees its payloads. */
export interface SymbolWatch {
  symbol: string;
  target: WatchTarget;
  view: (payload: unknown) => unknown;
  /** Only the newest payload matters (books), or every one does (trades). */
  keep: 'latest' | 'all';
}

/**
 * What a call of a streaming method watches, from its validated arguments:
 * one symbol, or (`watchOrderBooks`) each symbol of a list through the
 * single-symbol method. Used by `/ws` and by the HTTP fallback alike.
 */
export function symbolWatches(venue: Venue, routed: RoutedMethod, args: unknown[], methods: MethodRegistry, credentials?: Credentials): SymbolWatch[] {
  const stream = routed.declaration.stream;
  if (!stream) {
    throw new PredgateError('BAD_REQUEST', `${routed.name} is not a streaming method: call it with POST /api/${venue.id}/${routed.name}`, {
      detail: { method: routed.name },
    });
  }
  if (!venue.capabilities[routed.name]) {
    throw new PredgateError('NOT_SUPPORTED', `${venue.id} does not support ${routed.name}`, { exchange: venue.id });
  }
  if (stream.symbols === 'one') {
    const view = stream.view;
    return [
      {
        symbol: String(args[0]),
        target: { venue, method: routed.name, stream, upstreamArgs: args.slice(0, stream.upstreamArgs), ...(credentials ? { credentials } : {}) },
        view: view ? (payload) => view(payload, args) : (payload) => payload,
        keep: stream.keep,
      },
    ];
  }
  const each = methods.get(stream.each!)!;
  const eachStream = each.declaration.stream!;
  return [...new Set(args[0] as string[])].map((symbol) => {
    const eachArgs = [symbol, ...args.slice(1)];
    const view = eachStream.view;
    return {
      symbol,
      target: {
        venue,
        method: each.name,
        stream: eachStream,
        upstreamArgs: eachArgs.slice(0, eachStream.upstreamArgs),
        ...(credentials ? { credentials } : {}),
      },
      view: view ? (payload: unknown) => view(payload, eachArgs) : (payload: unknown) => payload,
      keep: eachStream.keep,
    };
  });
}
