import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AdapterPluginError, coreVersion, validateAdapterPlugin } from '@predgate/core';
import type { AdapterPlugin } from '@predgate/core';
import semver from 'semver';
import { readManifest } from './manifest.js';
import type { Manifest, ManifestVenue } from './manifest.js';

/** Keyword an npm package carries to say it is a Predgate adapter. */
export const adapterKeyword = 'predgate-adapter';

export interface LoadedAdapter {
  venue: ManifestVenue;
  plugin: AdapterPlugin;
}

/**
 * Imports each venue's adapter package and checks it: a valid plugin object,
 * a version the manifest accepts, a core range the running core satisfies.
 * The first problem stops the start with one line naming the package.
 */
export async function loadAdapters(manifest: Manifest, searchRoots: readonly string[], runningCore = coreVersion): Promise<LoadedAdapter[]> {
  const loaded: LoadedAdapter[] = [];
  for (const venue of manifest.venues) {
    const plugins = await importPlugins(venue.package, searchRoots);
    const plugin = plugins.find((candidate) => (candidate as { id?: unknown } | undefined)?.id === venue.id);
    if (!plugin) {
      const offered = plugins.map((candidate) => (candidate as { id?: unknown } | undefined)?.id).join(', ') || 'none';
      throw new AdapterPluginError(`${venue.package}: has no adapter plugin for venue "${venue.id}" (it provides: ${offered})`);
    }
    const valid = validateAdapterPlugin(plugin, venue.package, runningCore);
    if (!semver.satisfies(valid.version, venue.version, { includePrerelease: true })) {
      throw new AdapterPluginError(`${venue.package}: the manifest pins ${venue.id} to ${venue.version}, but version ${valid.version} is installed`);
    }
    loaded.push({ venue, plugin: valid });
  }
  return loaded;
}

/** The bundled adapters' default manifest, in `@predgate/adapters`, a dependency of the gateway. */
const bundledManifestPath = createRequire(import.meta.url).resolve('@predgate/adapters/manifest.json');

/** Where the bundled adapter packages resolve from: searched before the search roots. */
const bundledAdaptersRoot = dirname(bundledManifestPath);

/**
 * The deployment when the operator gives no manifest: the bundled adapters'
 * default manifest, and every other adapter package the project around the
 * gateway depends on (each venue pinned to the version installed).
 */
export async function defaultManifest(searchRoots: readonly string[]): Promise<Manifest> {
  const bundled = readManifest(bundledManifestPath);
  const installed = await installedAdaptersManifest(searchRoots);
  const others = installed.venues.filter((venue) => !bundled.venues.some((known) => known.id === venue.id || known.package === venue.package));
  return { venues: [...bundled.venues, ...others] };
}

/**
 * Every adapter package the projects at `searchRoots` depend on, each venue
 * pinned to the version installed.
 */
export async function installedAdaptersManifest(searchRoots: readonly string[]): Promise<Manifest> {
  const venues: ManifestVenue[] = [];
  for (const name of installedAdapterPackages(searchRoots)) {
    for (const plugin of await importPlugins(name, searchRoots)) {
      const { id, version } = plugin as Partial<AdapterPlugin>;
      if (typeof id !== 'string' || typeof version !== 'string') {
        throw new AdapterPluginError(`${name}: invalid adapter plugin: "id" and "version" are required`);
      }
      if (!venues.some((venue) => venue.id === id)) venues.push({ id, package: name, version, config: {} });
    }
  }
  return { venues };
}

function installedAdapterPackages(searchRoots: readonly string[]): string[] {
  const names = new Set<string>();
  for (const root of searchRoots) {
    const manifest = readJson(join(root, 'package.json'));
    const dependencies = { ...(manifest?.dependencies as object), ...(manifest?.optionalDependencies as object) };
    for (const name of Object.keys(dependencies)) {
      const installed = readJson(join(root, 'node_modules', name, 'package.json'));
      if (Array.isArray(installed?.keywords) && installed.keywords.includes(adapterKeyword)) names.add(name);
    }
  }
  return [...names].sort();
}

/** A package's plugins: its `plugins` export when it offers several venues, else its default export. */
async function importPlugins(name: string, searchRoots: readonly string[]): Promise<unknown[]> {
  const module = (await importPackage(name, searchRoots)) as { plugins?: unknown; default?: unknown };
  if (Array.isArray(module.plugins)) return module.plugins;
  return module.default === undefined ? [] : [module.default];
}

/**
 * Imports a package the gateway itself can resolve, or else one of the
 * bundled adapters, or else one installed in a search root (the project the
 * gateway runs in, where third-party adapters are installed).
 */
async function importPackage(name: string, searchRoots: readonly string[]): Promise<unknown> {
  try {
    return await import(name);
  } catch (error) {
    if (!isMissing(error, name)) throw loadFailure(name, error);
  }
  for (const root of [bundledAdaptersRoot, ...searchRoots]) {
    let entry: string;
    try {
      entry = createRequire(join(root, 'package.json')).resolve(name);
    } catch {
      continue;
    }
    try {
      return await import(pathToFileURL(entry).href);
    } catch (error) {
      throw loadFailure(name, error);
    }
  }
  throw new AdapterPluginError(`${name}: adapter package is not installed (looked in ${searchRoots.join(', ')})`);
}

function isMissing(error: unknown, name: string): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (code === 'ERR_MODULE_NOT_FOUND' || /Failed to (load|resolve)|Cannot find (module|package)/.test(message ?? '')) && (message ?? '').includes(name);
}

function loadFailure(name: string, error: unknown): AdapterPluginError {
  return new AdapterPluginError(`${name}: adapter package failed to load: ${(error as Error).message}`);
}

function readJson(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}
