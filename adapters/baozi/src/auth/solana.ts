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

/** A wallet's public key from a base58 64-byte Solana secret key; undefined when it is not one. */
export function publicKeyOfSecret(secret: string): string | undefined {
  // A key whose second half is not the public key of its first is damaged: refused rather than read as someone else's account.
  return keypairOf(secret)?.address;
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

/** A signing key from a base58 64-byte Solana secret key; undefined when it is not one (or its halves disagree). */
export function keypairOf(secret: string): { seed: Uint8Array; publicKey: Uint8Array; address: string } | undefined {
  const bytes = secret.length <= 100 ? base58Decode(secret.trim()) : undefined;
  if (bytes?.length !== 64) return undefined;
  const seed = bytes.slice(0, 32);
  const publicKey = ed25519.getPublicKey(seed);
  if (!publicKey.every((byte, index) => byte === bytes[32 + index])) return undefined;
  return { seed, publicKey, address: base58Encode(publicKey) };
}

export interface AccountMeta {
  pubkey: Uint8Array;
  signer: boolean;
  writable: boolean;
}

/** Solana's compact-u16 length prefix (1 to 3 bytes, 7 bits each, low first). */
function compactU16(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(low);
      return out;
    }
    out.push(low | 0x80);
  }
}

/**
 * A legacy transaction of one instruction, fee paid and signed by one key:
 * the message (header, account keys ordered signer-writable, writable,
 * read-only, the recent blockhash, the instruction) and its ed25519 signature.
 */
export function signedTransaction(options: {
  payer: { seed: Uint8Array; publicKey: Uint8Array };
  programId: Uint8Array;
  accounts: readonly AccountMeta[];
  data: Uint8Array;
  recentBlockhash: Uint8Array;
}): { wire: Uint8Array; signature: Uint8Array } {
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
  const metas = new Map<string, AccountMeta>();
  const add = (meta: AccountMeta) => {
    const known = metas.get(hex(meta.pubkey));
    metas.set(hex(meta.pubkey), known ? { pubkey: meta.pubkey, signer: known.signer || meta.signer, writable: known.writable || meta.writable } : meta);
  };
  add({ pubkey: options.payer.publicKey, signer: true, writable: true });
  options.accounts.forEach(add);
  add({ pubkey: options.programId, signer: false, writable: false });
  const all = [...metas.values()];
  const rank = (meta: AccountMeta) => (meta.signer ? (meta.writable ? 0 : 1) : meta.writable ? 2 : 3);
  // Stable: accounts keep their first-seen order within each class, the payer first of all.
  const keys = all.map((meta, order) => ({ meta, order })).sort((a, b) => rank(a.meta) - rank(b.meta) || a.order - b.order);
  const indexOf = new Map(keys.map(({ meta }, index) => [hex(meta.pubkey), index]));
  const signers = keys.filter(({ meta }) => meta.signer);
  if (signers.length !== 1) throw new Error('one signer is supported');
  const header = [
    signers.length,
    keys.filter(({ meta }) => meta.signer && !meta.writable).length,
    keys.filter(({ meta }) => !meta.signer && !meta.writable).length,
  ];
  const message = Uint8Array.from([
    ...header,
    ...compactU16(keys.length),
    ...keys.flatMap(({ meta }) => [...meta.pubkey]),
    ...options.recentBlockhash,
    ...compactU16(1),
    indexOf.get(hex(options.programId))!,
    ...compactU16(options.accounts.length),
    ...options.accounts.map((meta) => indexOf.get(hex(meta.pubkey))!),
    ...compactU16(options.data.length),
    ...options.data,
  ]);
  const signature = ed25519.sign(message, options.payer.seed);
  return { wire: Uint8Array.from([...compactU16(1), ...signature, ...message]), signature };
}
