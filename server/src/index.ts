export { createApp } from './app.js';
export type { App, AppOptions } from './app.js';
export { ConfigError, environmentNames, loadConfig } from './config.js';
export type { ServerConfig } from './config.js';
export { KeyStore } from './keys/key-store.js';
export type { StoredKey } from './keys/key-store.js';
export { parseManifest, readManifest } from './venues/manifest.js';
export type { Manifest, ManifestVenue } from './venues/manifest.js';
