// Connection-level commands: the handshake and the few commands the driver
// sends on its own (ping, endSessions) or that tools commonly ask (buildInfo).
import type { Document } from 'mongodb';
import type { CommandContext, CommandHandler } from '../command.js';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE_BYTES, MAX_WRITE_BATCH_SIZE } from '../limits.js';

// Wire version 21 is MongoDB 7.0. Driver 7 accepts 9..29; announcing a newer
// server would invite commands the double lacks (client.bulkWrite needs 25).
const MAX_WIRE_VERSION = 21;
const SERVER_VERSION = '7.0.0';

function hello(legacy: boolean): CommandHandler {
  return (_command: Document, context: CommandContext) => ({
    // The legacy command answers `ismaster`, hello answers `isWritablePrimary`.
    [legacy ? 'ismaster' : 'isWritablePrimary']: true,
    // No setName or msg: a standalone. The driver then sends no txnNumber
    // (no retryable writes) and no $readPreference.
    helloOk: true,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    // Announcing sessions makes the driver behave as it does against a real
    // server (implicit sessions, endSessions on close).
    logicalSessionTimeoutMinutes: 30,
    connectionId: context.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    // No topologyVersion: without it the driver's monitor polls with plain
    // hello commands instead of awaitable (exhaust) hello, which is not
    // implemented here.
  });
}

export const handshakeCommands: Record<string, CommandHandler> = {
  hello: hello(false),
  isMaster: hello(true),
  ismaster: hello(true),
  ping: () => ({}),
  endSessions: () => ({}),
  buildInfo: () => ({
    version: SERVER_VERSION,
    versionArray: SERVER_VERSION.split('.').map(Number).concat(0),
    gitVersion: 'mongo-wire-test-double',
    bits: 64,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  }),
};
