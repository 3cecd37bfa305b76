/**
 * The few runtime services core code needs from its host. They are interfaces
 * so the server can pass pino and tests can pass a fixed clock.
 */

type LogMethod = (object: Record<string, unknown>, message?: string) => void;

/** The subset of pino's logger that adapters and core use. */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  child(bindings: Record<string, unknown>): Logger;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(epochMs: number): Clock {
  return { now: () => epochMs };
}

const ignore: LogMethod = () => {};

export const silentLogger: Logger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  child: () => silentLogger,
};
