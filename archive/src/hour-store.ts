import type { RollResult } from './roller.js';

/** A published hourly file, as `GET /archive/files` lists it. */
export interface ArchiveFile {
  name: string;
  /** Start of the UTC hour, ISO 8601. */
  hour: string;
  size: number;
  rows: number;
  sha256: string;
}

export interface HourFacts extends ArchiveFile {
  /** The latest receive time in the hour: where a restart's gap begins when no journal is left. */
  lastReceivedAt?: number;
}

/** Where one attempt at an hour writes its files (inside `workDir`) and where they are published. */
export interface HourPaths {
  name: string;
  data: string;
  checkpoints: string;
  workDir: string;
  dataTemp: string;
  checkpointsTemp: string;
}

/**
 * The part of the archive that writes published hours: what the importer needs
 * (the archive implements it), so the importer does not depend on the archive.
 */
export interface HourStore {
  hourPaths(start: number): HourPaths;
  factsFor(start: number): HourFacts | undefined;
  publish(start: number, paths: HourPaths, result: RollResult): Promise<void>;
  checkpointPath(start: number): string;
}
