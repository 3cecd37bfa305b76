import { asksArchive, namesSourceExchange, notArchived, scopeToVenue } from '@predgate/core';
import type { CallAnswerer } from '@predgate/core';
import type { StreamService } from '../streaming/service.js';
import type { Answerer } from './pipeline.js';

/** Methods the gateway answers itself from what it knows of the venue (`describe`). */
export const describeAnswerer: Answerer = {
  name: 'describe',
  canAnswer: (call) => call.method === 'describe',
  answer: (call) => ({ data: call.target.describe() }),
};

/** `close`, as pmxt clients send it on shutdown: ends the caller's watches and subscriptions on the venue. */
export function closeAnswerer(streams: StreamService): Answerer {
  return {
    name: 'close',
    canAnswer: (call) => call.method === 'close',
    answer: (call) => ({ data: streams.closeFor({ keyId: call.keyId, address: call.address }, call.target) }),
  };
}

/** Watches over HTTP, for clients without a socket: they read the same shared upstreams as `/ws`, per API key. */
export function watchAnswerer(streams: StreamService): Answerer {
  return {
    name: 'watches',
    canAnswer: (call) => call.declaration.stream !== undefined || streams.stoppedBy(call.method) !== undefined,
    async answer(call) {
      const watched = streams.stoppedBy(call.method);
      if (watched) return { data: streams.stopOverHttp({ keyId: call.keyId, address: call.address }, call.target, watched, call.input) };
      return { data: await streams.nextOverHttp(call.keyId, call.target, call.routed, call.input), servedFrom: 'live' };
    },
  };
}

/**
 * `sourceExchange` on a catalog call scopes it to one venue: another venue's
 * is answered here, the venue's own is dropped before anyone else reads the
 * call. A venue that spans venues (the Router) takes it as a filter instead.
 */
export const scopeAnswerer: Answerer = {
  name: 'scope',
  canAnswer: (call) => !call.target.plugin.spansVenues && namesSourceExchange(call.declaration, call.args),
  answer(call) {
    const scoped = scopeToVenue(call.method, call.declaration, call.args, call.venue);
    if (scoped.kind === 'answer') return { data: scoped.data };
    call.args = scoped.args;
    return undefined;
  },
};

/** History (`since`/`until`) is the archive's to answer, for the venues it holds; for any other venue one uniform refusal. */
export function archiveAnswerer(archive: CallAnswerer | undefined): Answerer {
  return {
    name: 'archive',
    canAnswer: (call) => asksArchive(call.declaration, call.args),
    answer(call) {
      if (!archive?.canAnswer(call)) throw notArchived(call.method, call.venue, archive?.venues ?? []);
      return archive.answer(call);
    },
  };
}
