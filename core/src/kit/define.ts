import { readFileSync } from 'node:fs';
import Joi from 'joi';
import type { AdapterMethodName, VenueAdapter } from '../methods/adapter.js';
import { AdapterPluginError, readAdapterConfig } from '../plugin.js';
import type { AdapterContext, AdapterPlugin } from '../plugin.js';

export interface PluginDefinition<C, A extends VenueAdapter> {
  /** Venue id, as in `/api/{exchange}/...`. */
  id: string;
  displayName: string;
  /** The adapter package's package.json: `new URL('../package.json', import.meta.url)` from `src/index.ts`. */
  packageJson: URL;
  /** Request headers the adapter sends that carry credentials or signatures: blanked in every log line. */
  secretHeaders?: readonly string[];
  /** Schema of the adapter's manifest section (defaults applied); none when it takes no configuration. */
  config?: Joi.ObjectSchema<C>;
  /** Makes one adapter instance (one per set of credentials, or the shared public one). */
  create(context: AdapterContext, config: C): A;
}

interface PackageManifest {
  version?: unknown;
  peerDependencies?: Record<string, unknown>;
}

const emptyConfig = Joi.object({});

/**
 * The plugin object an adapter package exports. Its version and the range of
 * `@predgate/core` it works with come from its own package.json (the peer
 * range it declares is the one it is built for), so they are written once.
 */
export function definePlugin<C, A extends VenueAdapter>(definition: PluginDefinition<C, A>): AdapterPlugin<A> {
  const manifest = JSON.parse(readFileSync(definition.packageJson, 'utf8')) as PackageManifest;
  const coreRange = manifest.peerDependencies?.['@predgate/core'];
  if (typeof manifest.version !== 'string' || typeof coreRange !== 'string') {
    throw new AdapterPluginError(`${definition.id}: ${definition.packageJson.pathname} needs "version" and a "@predgate/core" peer dependency`);
  }
  const schema = (definition.config ?? emptyConfig) as Joi.ObjectSchema<C>;
  return {
    id: definition.id,
    version: manifest.version,
    coreRange,
    displayName: definition.displayName,
    ...(definition.secretHeaders ? { secretHeaders: definition.secretHeaders } : {}),
    create: (context) => definition.create(context, readAdapterConfig(schema, context.config, definition.id)),
  };
}

/**
 * An adapter as an object literal typed by the core method list: each method
 * it writes gets its parameters and result type from the list, so an adapter
 * imports no model types to implement a method and needs no forwarding class.
 */
export function defineAdapter<const A extends VenueAdapter>(adapter: A): DefinedAdapter<A> {
  return adapter as DefinedAdapter<A>;
}

/** The adapter as written, each method it implements typed as the method list declares it (optional arguments optional). */
export type DefinedAdapter<A> = Omit<A, AdapterMethodName> & { [K in keyof A & AdapterMethodName]-?: NonNullable<VenueAdapter[K]> };

/** Methods written as free functions over a shared context, with that context as first argument. */
type ContextFunctions<C> = Record<string, (ctx: C, ...args: never[]) => unknown>;

/** The same functions with the context bound: the methods an adapter hands to `defineAdapter`. */
export type BoundMethods<C, F extends ContextFunctions<C>> = { [K in keyof F]: F[K] extends (ctx: C, ...args: infer P) => infer R ? (...args: P) => R : never };

/**
 * Binds the shared context of an adapter instance to the free functions that
 * implement its methods, so the adapter needs no line per method that only
 * forwards: `defineAdapter({ id, profile, ...bindContext(ctx, { fetchEvents, fetchMarkets }) })`.
 */
export function bindContext<C, F extends ContextFunctions<C>>(ctx: C, functions: F): BoundMethods<C, F> {
  return Object.fromEntries(
    Object.entries(functions).map(([name, implementation]) => [name, (...args: never[]) => implementation(ctx, ...args)]),
  ) as BoundMethods<C, F>;
}
