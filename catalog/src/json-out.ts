/** Bytes that can copy themselves into place: an event's stored bytes on disk are read straight into the answer. */
export interface PlacedBytes {
  readonly length: number;
  readInto(target: Buffer, at: number): void;
}

/**
 * Where an answer's JSON is assembled: one buffer, reused by every answer
 * (assembly is synchronous), that stored bytes are read or spliced straight
 * into, and that `finish` copies out at the answer's exact size. A page of
 * events then costs one read per event into place and one copy, not a buffer
 * per event and another to join them.
 */
export class JsonOut {
  private buffer = Buffer.allocUnsafeSlow(256 * 1024);
  /** Bytes written so far: where the next write goes. */
  length = 0;

  /** The buffer with room for `bytes` more bytes past `length` (valid until the next write grows it). */
  room(bytes: number): Buffer {
    const needed = this.length + bytes;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    return this.buffer;
  }

  text(text: string): void {
    this.length += this.room(Buffer.byteLength(text)).write(text, this.length);
  }

  bytes(bytes: Uint8Array | PlacedBytes): void {
    const target = this.room(bytes.length);
    if (bytes instanceof Uint8Array) target.set(bytes, this.length);
    else bytes.readInto(target, this.length);
    this.length += bytes.length;
  }

  /** The answer written since the last `finish`, in a buffer of its own; the shared buffer is then free again. */
  finish(): Buffer {
    const answer = Buffer.allocUnsafe(this.length);
    this.buffer.copy(answer, 0, 0, this.length);
    this.length = 0;
    return answer;
  }
}

const shared = new JsonOut();

/** Writes a JSON value into an answer. */
export type JsonWriter = (out: JsonOut) => void;

/** `before` + the value `write` writes + `after`, as one buffer. */
export function wrapJson(write: JsonWriter, before: string, after: string): Buffer {
  shared.length = 0;
  shared.text(before);
  write(shared);
  shared.text(after);
  return shared.finish();
}
