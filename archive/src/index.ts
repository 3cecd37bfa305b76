export { archivedVenue } from './venue.js';
export { PolymarketArchive } from './archive.js';
export type { ArchiveFile, ArchiveOptions, ImportReport } from './archive.js';
export { stagedLine } from './staged-rows.js';
export { hourFileName, hourOfFileName, hourStart } from './hours.js';
export { rowGroupRows, v2Columns, v2Schema } from './hour-file.js';
export type { GapMarker } from './rows.js';
export { Recorder } from './recorder.js';
export type { RecorderOptions, RecorderStats } from './recorder.js';
