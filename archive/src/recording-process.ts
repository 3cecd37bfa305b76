// The recording child process: the market channel's sockets, frame parsing,
// the open hour's journal and the rolling of closed hours all run here, so a
// busy hour never stalls the process that started it (the gateway). The
// parent lists the tokens to record and asks for the open hour's rows of a
// token; this process reports its figures and its log lines.
import { PolymarketArchive } from './archive.js';
import { Recorder } from './recorder.js';
import type { RecordingJob, RecordingReply, RecordingRequest } from './recording.js';

const job = JSON.parse(process.argv[2] ?? '{}') as RecordingJob;
const send = (message: RecordingReply) => process.send!(message);
const tokenRequests = new Map<number, { resolve: (tokens: string[]) => void; reject: (error: Error) => void }>();
let nextRequest = 0;

const log = (level: 'warn' | 'info') => (object: object, message: string) => send({ type: 'log', level, object, message });
const archive = await PolymarketArchive.open({ ...job.archive, mode: 'write' });
const recorder = new Recorder({
  ...job.recorder,
  archive,
  listTokens: () =>
    new Promise((resolve, reject) => {
      nextRequest += 1;
      tokenRequests.set(nextRequest, { resolve, reject });
      send({ type: 'listTokens', id: nextRequest });
    }),
  logger: { warn: log('warn'), info: log('info') },
});

let stopping: Promise<void> | undefined;
const stop = () =>
  (stopping ??= recorder
    .stop()
    .then(() => archive.close())
    .finally(() => process.exit(0)));
// The parent is gone (crashed or killed): what is appended is flushed and the process ends; the next start recovers the rest.
process.on('disconnect', () => void stop());

process.on('message', (message: RecordingRequest) => {
  if (message.type === 'tokens') {
    const request = tokenRequests.get(message.id);
    tokenRequests.delete(message.id);
    if (message.error !== undefined) request?.reject(new Error(message.error));
    else request?.resolve(message.tokens ?? []);
  } else if (message.type === 'assetHour') {
    archive.assetHour(message.start, message.assetId, message.since, message.until).then(
      (hour) => send({ type: 'assetHour', id: message.id, hour }),
      (error: unknown) => send({ type: 'assetHour', id: message.id, error: (error as Error).message }),
    );
  } else if (message.type === 'stop') {
    void stop();
  }
});

await recorder.start();
const report = () => send({ type: 'stats', stats: recorder.stats() });
setInterval(report, job.statsIntervalMs).unref();
send({ type: 'ready', pid: process.pid });
report();
