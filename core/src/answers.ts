import type { MethodDeclaration } from './methods/declaration.js';

/** Where the data of an answer comes from: the catalog's last sweep, the venue just now, or the order-book archive. */
export type ServedFrom = 'catalog' | 'live' | 'archive';

/** A call to a venue's method as the gateway read and checked it. */
export interface VenueCall {
  readonly venue: string;
  readonly method: string;
  readonly declaration: MethodDeclaration;
  readonly args: readonly unknown[];
}

/** An answer, and where and when its data was taken. */
export interface SourcedAnswer {
  readonly data: unknown;
  readonly servedFrom: ServedFrom;
  /** When the data was as answered (Unix ms): the end of the sweep that read it, the time of a book. Absent: just now. */
  readonly asOf?: number;
}

/**
 * A source of answers besides the venue itself, which a package outside the
 * gateway contributes (the archive answers history): it says which calls it
 * can answer, and answers them.
 */
export interface CallAnswerer {
  /** The venues it holds data of, for the refusal of a call for any other. */
  readonly venues: readonly string[];
  canAnswer(call: VenueCall): boolean;
  answer(call: VenueCall): Promise<SourcedAnswer>;
}
