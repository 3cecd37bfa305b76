/**
 * What each adapter can do, worked out in one place: the methods it
 * implements, those core derives for it, and the capability map both make.
 */

import type { Capability } from '../model/index.js';
import type { VenueAdapterBase } from './adapter.js';
import type { MethodImplementation } from './declaration.js';
import { coreMethods } from './method-list.js';
import type { MethodName } from './method-list.js';
import { ownMethod } from './own-method.js';
import type { MethodList } from './registry.js';

export { ownMethod } from './own-method.js';

/**
 * Core's implementation of a method for this adapter: the declaration's
 * `derive`, where it has one and the adapter has what it needs.
 */
export function derivedMethod(adapter: VenueAdapterBase, name: string, list: MethodList = coreMethods): MethodImplementation | undefined {
  return Object.hasOwn(list, name) ? list[name]!.derive?.(adapter) : undefined;
}

/**
 * The capability map: every method of the list, as the adapter provides it.
 * `true` for its own implementations, `'emulated'` for those it builds from
 * other calls (its `emulated` list) or that core provides for it, `false`
 * for the rest.
 */
export function capabilitiesOf(adapter: VenueAdapterBase, list: MethodList = coreMethods): Record<MethodName | (string & {}), Capability> {
  const has: Record<string, Capability> = {};
  // A method that ends a stream's watches is there exactly when the stream is.
  const stopped = new Map(Object.entries(list).flatMap(([name, declaration]) => (declaration.stream?.stop ? [[declaration.stream.stop, name] as const] : [])));
  for (const [name, declaration] of Object.entries(list)) {
    if (stopped.has(name)) has[name] = ownMethod(adapter, stopped.get(name)!) || derivedMethod(adapter, stopped.get(name)!, list) ? true : false;
    else if (declaration.answeredBy === 'gateway') has[name] = true;
    else if (ownMethod(adapter, name)) has[name] = (adapter.emulated as readonly string[] | undefined)?.includes(name) ? 'emulated' : true;
    else has[name] = derivedMethod(adapter, name, list) ? 'emulated' : false;
  }
  return has;
}

/** The methods of the list the adapter implements itself, leaving out what the gateway or core answers for it. */
export function ownMethodNames(adapter: VenueAdapterBase, list: MethodList = coreMethods): string[] {
  return Object.keys(list).filter((name) => list[name]!.answeredBy === 'adapter' && ownMethod(adapter, name));
}

/** The implementation a call of `name` runs: the adapter's own, else core's, else none. */
export function adapterMethod(adapter: VenueAdapterBase, name: string, list: MethodList = coreMethods): MethodImplementation | undefined {
  return ownMethod(adapter, name) ?? derivedMethod(adapter, name, list);
}
