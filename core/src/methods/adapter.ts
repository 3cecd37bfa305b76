import type { Capability, VenueProfile } from '../model/index.js';
import type { ArgumentsOf, ResultOf } from './declaration.js';
import type { CoreMethods, MethodName } from './method-list.js';
import { coreMethods } from './method-list.js';
import { derivedMethod, ownMethod } from './derived.js';
import type { MethodImplementation } from './derived.js';
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

/**
 * The capability map: every method of the list, as the adapter provides it.
 * `true` for its own implementations, `'emulated'` for those it builds from
 * other calls (its `emulated` list) or that core provides for it, `false`
 * for the rest.
 */
export function capabilitiesOf(adapter: VenueAdapterBase, list: MethodList = coreMethods): Record<string, Capability> {
  const has: Record<string, Capability> = {};
  for (const [name, declaration] of Object.entries(list)) {
    if (declaration.answeredBy === 'gateway') has[name] = true;
    else if (ownMethod(adapter, name)) has[name] = adapter.emulated?.includes(name) ? 'emulated' : true;
    else has[name] = derivedMethod(adapter, name) ? 'emulated' : false;
  }
  return has;
}

/** The methods of the list the adapter implements itself, leaving out what the gateway or core answers for it. */
export function ownMethodNames(adapter: VenueAdapterBase, list: MethodList = coreMethods): string[] {
  return Object.keys(list).filter((name) => list[name]!.answeredBy === 'adapter' && ownMethod(adapter, name));
}

/** The implementation a call of `name` runs: the adapter's own, else core's, else none. */
export function adapterMethod(adapter: VenueAdapterBase, name: string): MethodImplementation | undefined {
  return ownMethod(adapter, name) ?? derivedMethod(adapter, name);
}
