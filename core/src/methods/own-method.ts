import type { MethodImplementation } from './declaration.js';

/** The adapter's own implementation of a method, bound to it. */
export function ownMethod(adapter: object, name: string): MethodImplementation | undefined {
  const candidate = (adapter as Record<string, unknown>)[name];
  return typeof candidate === 'function' ? (candidate as MethodImplementation).bind(adapter) : undefined;
}
