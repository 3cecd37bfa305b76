import type { Capability, VenueProfile } from '../model/index.js';
import type { ArgumentsOf, ResultOf } from './declaration.js';
import type { CoreMethods, MethodName } from './method-list.js';
import { coreMethods } from './method-list.js';
import type { MethodList } from './registry.js';

type MaybePromise<T> = T | Promise<T>;

/** Methods an adapter may implement for a method list: those the adapter answers, each optional. */
export type AdapterMethods<L extends MethodList> = {
  [M in keyof L as L[M]['answeredBy'] extends 'gateway' ? never : M]?: (
    ...args: ArgumentsOf<L[M]['args']>
  ) => MaybePromise<ResultOf<L[M]>>;
};

/** Names of the core methods an adapter can implement. */
export type AdapterMethodName = keyof AdapterMethods<CoreMethods> & MethodName;

export interface VenueAdapterBase {
  /** Venue id, as in `/api/{exchange}/...`. */
  readonly id: string;
  readonly profile: VenueProfile;
  /** Implemented methods that are built from other venue calls rather than a venue endpoint of their own. */
  readonly emulated?: readonly string[];
  /** Releases sockets, timers and subscriptions. */
  close?(): Promise<void>;
}

/**
 * A venue adapter: any subset of the core methods, with the signatures the
 * method list declares. What it implements is its capability map.
 */
export type VenueAdapter = VenueAdapterBase & AdapterMethods<CoreMethods>;

/** The capability map: every method of the list, as the adapter provides it. */
export function capabilitiesOf(adapter: VenueAdapterBase, list: MethodList = coreMethods): Record<string, Capability> {
  const has: Record<string, Capability> = {};
  for (const [name, declaration] of Object.entries(list)) {
    if (declaration.answeredBy === 'gateway') {
      has[name] = true;
    } else if (typeof (adapter as unknown as Record<string, unknown>)[name] === 'function') {
      has[name] = adapter.emulated?.includes(name) ? 'emulated' : true;
    } else {
      has[name] = false;
    }
  }
  return has;
}

/** Calls an adapter's implementation of a method by name; the registry has already validated `args`. */
export function adapterMethod(adapter: VenueAdapterBase, name: string): ((...args: unknown[]) => unknown) | undefined {
  const candidate = (adapter as unknown as Record<string, unknown>)[name];
  return typeof candidate === 'function' ? (candidate as (...args: unknown[]) => unknown).bind(adapter) : undefined;
}
