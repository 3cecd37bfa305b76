/** A time a connection was down: books of `assetIds` (every token when absent) are unknown between `from` and `to`. */
export interface GapMarker {
  from: number;
  to: number;
  assetIds?: string[];
  reason: string;
}
