import { PredgateError } from '@predgate/core';

/**
 * How deep a JSON request body or `/ws` frame may nest (arrays and objects),
 * declared once for both. Every body the gateway takes is a few levels deep (an order, a list of events with their
 * markets); 64 leaves room for any of them while keeping recursive work on a
 * body (hashing, validation, serialising) far from the stack's limit.
 */
export const maxJsonDepth = 64;

/** The refusal of a body or frame nested deeper than `maxJsonDepth`. */
export function tooDeep(what: string): PredgateError {
  return new PredgateError('VALIDATION_ERROR', `${what} nests deeper than ${maxJsonDepth} levels of arrays and objects`, {
    detail: { maxDepth: maxJsonDepth },
  });
}

/** True when `value` (parsed JSON) holds arrays or objects more than `limit` levels deep. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (!isJsonContainer(value)) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (isJsonContainer(child)) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** An array or plain object as JSON.parse makes them (not a Buffer or a stream hapi may hand over). */
function isJsonContainer(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
