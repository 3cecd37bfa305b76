// The codec on its own, for message shapes the driver never produces (a
// checksum, unknown flags) and for TCP chunking the driver cannot control.
import { BSON, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { MessageFramer, WireProtocolError, decodeRequest, encodeReply } from './wire-protocol.js';

const CHECKSUM_PRESENT = 1;
const MORE_TO_COME = 2;

function header(length: number, requestId: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeInt32LE(length, 0);
  bytes.writeInt32LE(requestId, 4);
  bytes.writeInt32LE(opCode, 12);
  return bytes;
}

function opMsg(flags: number, body: Document, sequences: Record<string, Document[]> = {}): Buffer {
  const flagBits = Buffer.alloc(4);
  flagBits.writeUInt32LE(flags >>> 0, 0);
  const sections: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(body))];
  for (const [identifier, documents] of Object.entries(sequences)) {
    const payload = Buffer.concat([Buffer.from(`${identifier}\0`), ...documents.map((document) => BSON.serialize(document))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(payload.length + 4, 0);
    sections.push(Buffer.from([1]), size, payload);
  }
  const checksum = flags & CHECKSUM_PRESENT ? [Buffer.alloc(4, 0xab)] : [];
  const rest = Buffer.concat([flagBits, ...sections, ...checksum]);
  return Buffer.concat([header(16 + rest.length, 7, 2013), rest]);
}

describe('wire protocol codec', () => {
  it('folds kind-1 document sequences into the command and skips a checksum', () => {
    const message = opMsg(CHECKSUM_PRESENT, { insert: 'events', $db: 'catalog' }, { documents: [{ _id: 1 }, { _id: 2 }] });
    const request = decodeRequest(message);

    expect(request).toMatchObject({ requestId: 7, legacy: false, database: 'catalog', expectsReply: true });
    expect(request.command).toEqual({ insert: 'events', $db: 'catalog', documents: [{ _id: 1 }, { _id: 2 }] });
  });

  it('expects no reply when moreToCome is set', () => {
    expect(decodeRequest(opMsg(MORE_TO_COME, { ping: 1, $db: 'admin' })).expectsReply).toBe(false);
  });

  it('rejects unknown required flag bits and opcodes', () => {
    expect(() => decodeRequest(opMsg(1 << 5, { ping: 1, $db: 'admin' }))).toThrow(WireProtocolError);
    // Bits 16 and up are optional: exhaustAllowed must not be an error.
    expect(decodeRequest(opMsg(1 << 16, { ping: 1, $db: 'admin' })).command).toMatchObject({ ping: 1 });
    expect(() => decodeRequest(header(16, 1, 2010))).toThrow(WireProtocolError);
  });

  it('reassembles messages split across chunks and splits messages sharing one', () => {
    const first = opMsg(0, { ping: 1, $db: 'admin' });
    const second = opMsg(0, { hello: 1, $db: 'admin' });
    const stream = Buffer.concat([first, second]);
    const framer = new MessageFramer();

    const messages = [...stream].flatMap((byte) => framer.push(Buffer.from([byte])));
    expect(messages.map((message) => Buffer.from(message))).toEqual([first, second]);
    expect(framer.push(stream)).toHaveLength(2);
  });

  it('rejects an impossible message length or section size', () => {
    expect(() => new MessageFramer().push(header(8, 1, 2013))).toThrow(WireProtocolError);
    const message = opMsg(0, { ping: 1, $db: 'admin' });
    message.writeInt32LE(-4, 21);
    expect(() => decodeRequest(message)).toThrow(WireProtocolError);
  });

  it('answers a legacy OP_QUERY handshake with an OP_REPLY', () => {
    const query = Buffer.concat([Buffer.alloc(4), Buffer.from('admin.$cmd\0'), Buffer.alloc(8), Buffer.from(BSON.serialize({ ismaster: 1 }))]);
    const request = decodeRequest(Buffer.concat([header(16 + query.length, 3, 2004), query]));
    expect(request).toMatchObject({ legacy: true, database: 'admin', command: { ismaster: 1 } });

    const reply = encodeReply(request, { ok: 1 }, 9);
    expect(reply.readInt32LE(0)).toBe(reply.length);
    expect([reply.readInt32LE(4), reply.readInt32LE(8), reply.readInt32LE(12)]).toEqual([9, 3, 1]);
    expect(reply.readInt32LE(32)).toBe(1); // numberReturned
    expect(BSON.deserialize(reply.subarray(36))).toEqual({ ok: 1 });
  });
});
