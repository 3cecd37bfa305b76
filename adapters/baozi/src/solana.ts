import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519';

/**
 * The few pieces of Solana this adapter needs, written out: base58 public
 * keys, program-derived addresses, and a reader for Borsh-encoded account
 * data (little-endian integers, u64 read as BigInt so lamports stay exact).
 */

const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const digitOf = new Map([...alphabet].map((char, index) => [char, BigInt(index)]));

/** Base58 text of bytes (Bitcoin alphabet; each leading zero byte is a leading `1`). */
export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 58n)]! + text;
    value /= 58n;
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  return '1'.repeat(zeros) + text;
}

/** Bytes of base58 text; undefined when it holds a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = digitOf.get(char);
    if (digit === undefined) return undefined;
    value = value * 58n + digit;
  }
  const body: number[] = [];
  while (value > 0n) {
    body.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros += 1;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body]);
}

/** The 32 bytes of a base58 public key; undefined when it is not one. */
export function publicKeyBytes(text: string): Uint8Array | undefined {
  if (text.length < 32 || text.length > 44) return undefined;
  const bytes = base58Decode(text);
  return bytes?.length === 32 ? bytes : undefined;
}

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

/** Whether 32 bytes are a point of the ed25519 curve (a PDA must not be one). */
function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.ExtendedPoint.fromHex(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The program-derived address of the seeds: sha256(seeds ‖ bump ‖ program ‖
 * "ProgramDerivedAddress") for the highest bump (255 down) whose hash is off
 * the curve, as Solana's `find_program_address`.
 */
export function findProgramAddress(seeds: readonly Uint8Array[], programId: Uint8Array): string {
  const marker = new TextEncoder().encode('ProgramDerivedAddress');
  for (let bump = 255; bump >= 0; bump -= 1) {
    const candidate = sha256(...seeds, Uint8Array.of(bump), programId, marker);
    if (!isOnCurve(candidate)) return base58Encode(candidate);
  }
  throw new Error('no program address found for these seeds');
}

/** A u64 as 8 little-endian bytes, for PDA seeds. */
export function u64Seed(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

/** The first 8 bytes of sha256(`account:<Name>`): the Anchor discriminator of an account type. */
export function accountDiscriminator(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(`account:${name}`)).slice(0, 8);
}

/** The first 8 bytes of sha256(`global:<name>`): the Anchor discriminator of an instruction. */
export function instructionDiscriminator(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(`global:${name}`)).slice(0, 8);
}

/** A wallet's public key from a base58 64-byte Solana secret key (seed ‖ public key); undefined when it is not one. */
export function publicKeyOfSecret(secret: string): string | undefined {
  const bytes = secret.length <= 100 ? base58Decode(secret.trim()) : undefined;
  if (bytes?.length !== 64) return undefined;
  const derived = ed25519.getPublicKey(bytes.slice(0, 32));
  // A key whose second half is not the public key of its first is damaged: refuse it rather than read someone else's account.
  if (!derived.every((byte, index) => byte === bytes[32 + index])) return undefined;
  return base58Encode(derived);
}

/** Reading past the data's end: the account is shorter than the layout says. */
export class LayoutError extends Error {
  constructor(
    readonly field: string,
    readonly offset: number,
  ) {
    super(`account data ends before ${field} (offset ${offset})`);
  }
}

/** Sequential Borsh reader over account bytes; every read names its field, for drift errors. */
export class BorshReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly data: Buffer) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  private need(field: string, size: number): number {
    if (this.offset + size > this.data.length) throw new LayoutError(field, this.offset);
    const at = this.offset;
    this.offset += size;
    return at;
  }

  skip(field: string, size: number): void {
    this.need(field, size);
  }

  bytes(field: string, size: number): Buffer {
    const at = this.need(field, size);
    return this.data.subarray(at, at + size);
  }

  u8(field: string): number {
    return this.view.getUint8(this.need(field, 1));
  }

  u16(field: string): number {
    return this.view.getUint16(this.need(field, 2), true);
  }

  u32(field: string): number {
    return this.view.getUint32(this.need(field, 4), true);
  }

  u64(field: string): bigint {
    return this.view.getBigUint64(this.need(field, 8), true);
  }

  i64(field: string): bigint {
    return this.view.getBigInt64(this.need(field, 8), true);
  }

  bool(field: string): boolean {
    const value = this.u8(field);
    if (value > 1) throw new LayoutError(field, this.offset - 1);
    return value === 1;
  }

  /** u32 length and UTF-8 bytes; a length past the account is a layout error, not a huge allocation. */
  string(field: string): string {
    const length = this.u32(field);
    return this.bytes(field, length).toString('utf8');
  }

  publicKey(field: string): string {
    return base58Encode(this.bytes(field, 32));
  }

  /** Borsh Option: tag 0 (None) or 1 followed by the value. */
  option<T>(field: string, read: () => T): T | undefined {
    const tag = this.u8(field);
    if (tag > 1) throw new LayoutError(field, this.offset - 1);
    return tag === 1 ? read() : undefined;
  }
}
