import type { CallInput, RoutedMethod, ServedFrom, VenueCall } from '@predgate/core';
import type { StoredAnswer } from '../plugins/json-answers.js';
import type { RequestLogger } from '../plugins/request-logging.js';
import type { Venue } from '../venues/venue.js';

/** JSON answers for the call's client: as they are sent to it, and kept when named by an identity (see `JsonAnswers`). */
export interface CallJson {
  /** The answer kept under `identity` for this client, if it still is. */
  cached(identity: string): StoredAnswer | undefined;
  /** `json` as this client is sent it, kept under `identity` when given; `gzipped` makes its gzip without compressing it (see `JsonAnswers.answer`). */
  stored(json: Buffer, identity?: string, gzipped?: () => Buffer | undefined): Promise<StoredAnswer>;
}

/** A pass-through call on its way to an answer: the request, the venue and method it names, and its checked arguments. */
export interface PassThroughCall extends VenueCall {
  /** The call as it arrived (verb, path, query and body): two requests of one form are read into the same arguments. */
  readonly form: string;
  readonly logger: RequestLogger;
  readonly json: CallJson;
  readonly target: Venue;
  readonly routed: RoutedMethod;
  readonly input: CallInput;
  /** The arguments as the answerers so far left them (scoping drops a venue's own `sourceExchange`). */
  args: unknown[];
  /** The API key the call was made with. */
  readonly keyId: string;
  /** The address the call came from: with the key, it finds the caller's sockets (`close`, an unwatch). */
  readonly address: string;
}

/** What an answerer sends: the `data` of the envelope, or an answer made already (stored JSON); and where it came from. */
export interface PassThroughAnswer {
  readonly data?: unknown;
  readonly sent?: StoredAnswer;
  /** Absent for what the gateway answers from what it knows itself (describe, an empty scope, an unwatch). */
  readonly servedFrom?: ServedFrom;
  /** When its data was as answered (Unix ms); absent: just now. */
  readonly asOf?: number;
}

/**
 * One way the pass-through can answer a call. The pass-through asks each in
 * order; the first that can answer does. An answerer may still pass the call
 * on (undefined), narrowed for the ones after it or untouched (the catalog,
 * when its read fails, leaves the call to the venue).
 */
export interface Answerer {
  /** Names it in logs and tests. */
  readonly name: string;
  canAnswer(call: PassThroughCall): boolean;
  answer(call: PassThroughCall): Promise<PassThroughAnswer | undefined> | PassThroughAnswer | undefined;
}

/** The first answer of `answerers` in order; between them they answer every call of a method the venue has. */
export async function answerCall(answerers: readonly Answerer[], call: PassThroughCall): Promise<PassThroughAnswer> {
  for (const answerer of answerers) {
    if (!answerer.canAnswer(call)) continue;
    const answer = await answerer.answer(call);
    if (answer) return answer;
  }
  throw new Error(`no answerer answered ${call.venue}/${call.method}`);
}
