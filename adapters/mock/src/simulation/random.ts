/**
 * A small seeded pseudo-random generator. Every simulated object draws from
 * its own stream, seeded with its id, so an object's data does not change when
 * other objects are added or the catalog is generated in a different order.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  float(min: number, max: number): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Log-uniform in [min, max]: every order of magnitude is as likely. */
  logUniform(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

export function createRandom(seed: string): Random {
  // Mulberry32 over a 32-bit FNV-1a hash of the seed.
  let state = 0x811c9dc5;
  for (let index = 0; index < seed.length; index += 1) {
    state = Math.imul(state ^ seed.charCodeAt(index), 0x01000193);
  }
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    float: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    logUniform: (min, max) => Math.exp(Math.log(min) + next() * (Math.log(max) - Math.log(min))),
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    sample: (items, count) => {
      const pool = [...items];
      for (let index = pool.length - 1; index > 0; index -= 1) {
        const other = Math.floor(next() * (index + 1));
        [pool[index], pool[other]] = [pool[other]!, pool[index]!];
      }
      return pool.slice(0, count);
    },
  };
  return random;
}

/** Rounds to `places` decimals; dividing by a power of ten leaves no binary noise such as 0.30000000000000004. */
export function round(value: number, places: number): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}
