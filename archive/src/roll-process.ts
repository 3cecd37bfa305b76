// A child process that rolls one closed hour, so the sort and the file
// writing never run on the recording (or gateway) event loop, and their
// memory is their own: the job arrives as JSON in argv, the result leaves over IPC.
import { rollJob } from './roll-job.js';
import type { RollJob } from './roll-job.js';

// A roll outlives nothing: when the process that asked for it is gone, so is the roll (its next start rolls again).
process.on('disconnect', () => process.exit(1));

const result = await rollJob(JSON.parse(process.argv[2] ?? '{}') as RollJob);
process.send!(result, () => process.exit(0));
