import { compress, decompress, init } from '@bokuweb/zstd-wasm';

let ready: Promise<void> | undefined;

/**
 * Loads the ZSTD module once per process: a second `init` replaces the module
 * under the first one's callers, and its decompression then fails on valid frames.
 */
export function zstdReady(): Promise<void> {
  return (ready ??= init());
}

export { compress as zstdCompress, decompress as zstdDecompress };
