// pmxt-core 2.41's own sidecar with its mock venue, for side-by-side figures.
import { once } from 'node:events';
import pmxtApp from 'pmxt-core/dist/server/app.js';

const server = await pmxtApp.startServer(0, process.env.PMXT_TOKEN || 'bench-token');
if (!server.listening) await once(server, 'listening');
process.stdout.write(`listening ${server.address().port}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
