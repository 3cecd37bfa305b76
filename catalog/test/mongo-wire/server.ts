// The TCP side: accepts connections on 127.0.0.1, frames and decodes requests,
// runs them against one shared store, and writes the replies.
import { createServer, type Socket } from 'node:net';
import { CursorRegistry } from './cursors.js';
import { runCommand } from './dispatch.js';
import { MemoryStore } from './store.js';
import { MessageFramer, decodeRequest, encodeReply } from './wire-protocol.js';

export interface MongoWireServerOptions {
  /** TCP port on 127.0.0.1; 0 (the default) lets the system pick a free one. */
  readonly port?: number;
}

export interface MongoWireServer {
  /** A connection string for the driver, already with directConnection=true. */
  readonly uri: string;
  readonly port: number;
  /** Drops every database and open cursor, for a clean slate between tests. */
  reset(): void;
  /** Stops listening and closes every client connection. */
  close(): Promise<void>;
}

export async function startMongoWireServer(options: MongoWireServerOptions = {}): Promise<MongoWireServer> {
  const { port = 0 } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`startMongoWireServer: options.port must be an integer from 0 to 65535, got ${String(port)}`);
  }
  const store = new MemoryStore();
  const cursors = new CursorRegistry();
  const sockets = new Set<Socket>();
  let connections = 0;
  let replies = 0;

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client that vanishes mid-reply only ends its own connection.
    socket.on('error', () => socket.destroy());
    socket.setNoDelay(true);
    const framer = new MessageFramer();
    const connectionId = ++connections;
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const message of framer.push(chunk)) {
          const request = decodeRequest(message);
          const reply = runCommand(request.command, { store, cursors, database: request.database, connectionId });
          if (request.expectsReply) socket.write(encodeReply(request, reply, ++replies));
        }
      } catch {
        // An unparseable message leaves the stream unframed: drop the
        // connection, as mongod does. Command failures never get here.
        socket.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mongo-wire: server has no TCP address');

  return {
    uri: `mongodb://127.0.0.1:${address.port}/?directConnection=true`,
    port: address.port,
    reset() {
      store.clear();
      cursors.clear();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
