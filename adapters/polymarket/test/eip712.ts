import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * A from-the-spec EIP-712 encoder for the signing tests: keccak and secp256k1
 * from @noble, ABI words padded by hand. It shares no code with the adapter
 * (which signs through viem), so agreement between the two is evidence.
 */

export const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;
export const bytesOf = (value: string): Uint8Array => Uint8Array.from(Buffer.from(value.replace(/^0x/, ''), 'hex'));
export const keccak = (...parts: Uint8Array[]): Uint8Array => keccak_256(Buffer.concat(parts));
export const keccakText = (text: string): Uint8Array => keccak_256(Buffer.from(text, 'utf8'));

/** One 32-byte ABI word of an unsigned integer. */
export function uintWord(value: bigint | number): Uint8Array {
  return bytesOf(BigInt(value).toString(16).padStart(64, '0'));
}

/** One 32-byte ABI word of an address (left-padded). */
export function addressWord(address: string): Uint8Array {
  return bytesOf(address.toLowerCase().replace(/^0x/, '').padStart(64, '0'));
}

/** `\x19\x01 ‖ domainSeparator ‖ structHash`, hashed. */
export function typedDataDigest(domainSeparator: Uint8Array, structHash: Uint8Array): Uint8Array {
  return keccak(Uint8Array.of(0x19, 0x01), domainSeparator, structHash);
}

/** r ‖ s ‖ v with v = 27 + recovery, as Ethereum wallets write it (RFC 6979 nonces make it deterministic). */
export function ethSign(digest: Uint8Array, privateKey: string): string {
  const signature = secp256k1.sign(digest, bytesOf(privateKey));
  return `${hex(signature.toCompactRawBytes())}${(27 + signature.recovery).toString(16)}`;
}

export const orderTypeString =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';

export interface PlainOrder {
  salt: bigint;
  maker: string;
  signer: string;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  side: number;
  signatureType: number;
  timestamp: bigint;
}

/** hashStruct(Order) with zero metadata and builder. */
export function orderStructHash(order: PlainOrder): Uint8Array {
  const zero = new Uint8Array(32);
  return keccak(
    keccakText(orderTypeString),
    uintWord(order.salt),
    addressWord(order.maker),
    addressWord(order.signer),
    uintWord(order.tokenId),
    uintWord(order.makerAmount),
    uintWord(order.takerAmount),
    uintWord(order.side),
    uintWord(order.signatureType),
    uintWord(order.timestamp),
    zero,
    zero,
  );
}

export function exchangeDomainSeparator(version: string, verifyingContract: string): Uint8Array {
  return keccak(
    keccakText('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
    keccakText('Polymarket CTF Exchange'),
    keccakText(version),
    uintWord(137),
    addressWord(verifyingContract),
  );
}
