import type { VenueProfile } from '../model/index.js';
import type { Feed } from '../streaming/feed.js';
import type { ArgumentsOf, ResultOf, StreamOptions } from './declaration.js';
import type { CoreMethods, MethodName } from './method-list.js';
import type { MethodList } from './registry.js';

type MaybePromise<T> = T | Promise<T>;

/** Methods an adapter may implement for a method list: those the adapter answers, each optional. */
export type AdapterMethods<L extends MethodList> = {
  [M in keyof L as L[M]['answeredBy'] extends 'gateway' ? never : M]?: L[M] extends { readonly stream: StreamOptions }
    ? (...args: ArgumentsOf<L[M]['args']>) => Feed<ResultOf<L[M]>>
    : (...args: ArgumentsOf<L[M]['args']>) => MaybePromise<ResultOf<L[M]>>;
};

/** Names of the core methods an adapter can implement. */
export type AdapterMethodName = keyof AdapterMethods<CoreMethods> & MethodName;

export interface VenueAdapterBase {
  /** Venue id, as in `/api/{exchange}/...`. */
  readonly id: string;
  readonly profile: VenueProfile;
  /** Implemented methods that are built from other venue calls rather than a venue endpoint of their own. */
  readonly emulated?: readonly AdapterMethodName[];
  /** Releases sockets, timers and subscriptions. */
  close?(): Promise<void>;
}

/**
 * A venue adapter: any subset of the core methods, with the signatures the
 * method list declares. What it implements is its capability map.
 */
export type VenueAdapter = VenueAdapterBase & AdapterMethods<CoreMethods>;
