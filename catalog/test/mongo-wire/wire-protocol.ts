// Framing and codec for the two message kinds the driver sends: OP_MSG for
// every command, and legacy OP_QUERY for the very first handshake on each
// connection (the driver cannot know yet whether the server speaks OP_MSG).
// Layouts follow MongoDB's "Wire Protocol" reference and the OP_MSG spec.
import { BSON, type Document } from 'mongodb';
import { MAX_MESSAGE_SIZE_BYTES } from './limits.js';

const HEADER_SIZE = 16;
const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

// OP_MSG flagBits. Bits 0-15 are "required": a parser must reject a message
// that sets one it does not know.
const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;
const KNOWN_REQUIRED_FLAGS = CHECKSUM_PRESENT | MORE_TO_COME;

/** A message the double cannot parse; the connection is closed, as mongod does. */
export class WireProtocolError extends Error {}

export interface CommandRequest {
  readonly requestId: number;
  /** Which message kind carried the command; the reply must use the matching kind. */
  readonly legacy: boolean;
  readonly database: string;
  /** The command document, with OP_MSG document sequences folded in as arrays. */
  readonly command: Document;
  /** False for OP_MSG with moreToCome (unacknowledged writes): send nothing back. */
  readonly expectsReply: boolean;
}

/** Cuts a TCP byte stream into whole wire messages. */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: Buffer[] = [];
    while (this.buffered >= 4) {
      const length = this.head().readInt32LE(0);
      if (length < HEADER_SIZE || length > MAX_MESSAGE_SIZE_BYTES) {
        throw new WireProtocolError(`invalid message length ${length}`);
      }
      if (this.buffered < length) break;
      const all = this.flatten();
      messages.push(all.subarray(0, length));
      const rest = all.subarray(length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
    return messages;
  }

  // Reading the length from the first chunk, and joining chunks only once a
  // message is complete, keeps a large message that arrives in many chunks
  // from being copied once per chunk.
  private head(): Buffer {
    const first = this.chunks[0] as Buffer;
    return first.length >= 4 ? first : this.flatten();
  }

  private flatten(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] as Buffer;
  }
}

export function decodeRequest(message: Buffer): CommandRequest {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) return decodeOpMsg(message, requestId);
  if (opCode === OP_QUERY) return decodeOpQuery(message, requestId);
  throw new WireProtocolError(`unsupported opCode ${opCode}`);
}

export function encodeReply(request: CommandRequest, reply: Document, replyId: number): Buffer {
  const body = BSON.serialize(reply);
  if (request.legacy) {
    // OP_REPLY: responseFlags, cursorID, startingFrom, numberReturned, documents.
    const prefix = Buffer.alloc(20);
    prefix.writeInt32LE(1, 16);
    return withHeader(OP_REPLY, replyId, request.requestId, [prefix, body]);
  }
  // OP_MSG: flagBits, then a single kind-0 section holding the reply.
  const prefix = Buffer.alloc(5);
  return withHeader(OP_MSG, replyId, request.requestId, [prefix, body]);
}

function decodeOpMsg(message: Buffer, requestId: number): CommandRequest {
  const flags = message.readUInt32LE(HEADER_SIZE);
  const unknownRequired = flags & 0xffff & ~KNOWN_REQUIRED_FLAGS;
  if (unknownRequired !== 0) throw new WireProtocolError(`unknown required OP_MSG flags ${unknownRequired}`);
  // The CRC-32C checksum is only a transport check; TCP already covers it here.
  const end = flags & CHECKSUM_PRESENT ? message.length - 4 : message.length;
  let body: Document | undefined;
  const sequences: Record<string, Document[]> = {};
  let offset = HEADER_SIZE + 4;
  while (offset < end) {
    const kind = message[offset];
    offset += 1;
    const size = message.readInt32LE(offset);
    // The smallest section is an empty document (5 bytes); a smaller size
    // would never move the cursor forward.
    if (size < 5 || offset + size > end) throw new WireProtocolError(`invalid OP_MSG section size ${size}`);
    if (kind === 0) {
      if (body) throw new WireProtocolError('OP_MSG with more than one body section');
      body = BSON.deserialize(message.subarray(offset, offset + size));
    } else if (kind === 1) {
      const nameEnd = message.indexOf(0, offset + 4);
      const identifier = message.toString('utf8', offset + 4, nameEnd);
      sequences[identifier] = readDocuments(message, nameEnd + 1, offset + size);
    } else {
      throw new WireProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
    offset += size;
  }
  if (!body) throw new WireProtocolError('OP_MSG without a body section');
  const database: unknown = body.$db;
  if (typeof database !== 'string') throw new WireProtocolError('OP_MSG body without $db');
  return {
    requestId,
    legacy: false,
    database,
    command: { ...body, ...sequences },
    expectsReply: (flags & MORE_TO_COME) === 0,
  };
}

// OP_QUERY: flags, fullCollectionName, numberToSkip, numberToReturn, query.
// Only commands ("<db>.$cmd") are accepted; nothing newer sends legacy queries.
function decodeOpQuery(message: Buffer, requestId: number): CommandRequest {
  const nameStart = HEADER_SIZE + 4;
  const nameEnd = message.indexOf(0, nameStart);
  const namespace = message.toString('utf8', nameStart, nameEnd);
  if (!namespace.endsWith('.$cmd')) throw new WireProtocolError(`legacy query on ${namespace}`);
  const [query] = readDocuments(message, nameEnd + 1 + 8, message.length);
  if (!query) throw new WireProtocolError('OP_QUERY without a query document');
  // A read preference wraps the command as { $query: command, $readPreference }.
  const command: Document = query.$query ?? query;
  return {
    requestId,
    legacy: true,
    database: namespace.slice(0, -'.$cmd'.length),
    command,
    expectsReply: true,
  };
}

function readDocuments(message: Buffer, start: number, end: number): Document[] {
  const documents: Document[] = [];
  for (let offset = start; offset < end;) {
    const size = message.readInt32LE(offset);
    documents.push(BSON.deserialize(message.subarray(offset, offset + size)));
    offset += size;
  }
  return documents;
}

function withHeader(opCode: number, requestId: number, responseTo: number, parts: Uint8Array[]): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  const length = parts.reduce((total, part) => total + part.length, HEADER_SIZE);
  header.writeInt32LE(length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, ...parts], length);
}
