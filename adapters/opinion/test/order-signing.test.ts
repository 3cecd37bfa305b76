import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, test } from 'vitest';
import { orderAmounts } from '../src/account/order-amounts.js';
import { signOrder, signerAddress } from '../src/auth/order-signing.js';
import type { CtfOrder } from '@predgate/core';

/**
 * The order signature checked against a digest built by hand from the EIP-712
 * rules (type strings, 32-byte ABI words, keccak from @noble/hashes) and signed
 * with @noble/curves: nothing here goes through viem, which the adapter signs with.
 */

// A well-known development key (the first Hardhat account), never a real one.
const privateKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const signer = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const exchange = '0x5F45344126D6488025B0b84A3A8189F2487a7246';
const safe = '0x3be5a1d0c8e4f8a9b2d7c6e5f4a3b2c1d0e9f8a7';
const yesToken = 72456972731943235003915404123398016087970045278788792487331472933921362295292n;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const keccak = (data: Uint8Array | string) => keccak_256(typeof data === 'string' ? new TextEncoder().encode(data) : data);
const word = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
const address = (value: string) => word(BigInt(value));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

function digestByHand(message: CtfOrder): Uint8Array {
  const domainType = keccak('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)');
  const domain = keccak(concat(domainType, keccak('OPINION CTF Exchange'), keccak('1'), word(56n), address(exchange)));
  const orderType = keccak(
    'Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)',
  );
  const struct = keccak(
    concat(
      orderType,
      word(message.salt),
      address(message.maker),
      address(message.signer),
      address(message.taker),
      word(message.tokenId),
      word(message.makerAmount),
      word(message.takerAmount),
      word(message.expiration),
      word(message.nonce),
      word(message.feeRateBps),
      word(BigInt(message.side)),
      word(BigInt(message.signatureType)),
    ),
  );
  return keccak(concat(new Uint8Array([0x19, 0x01]), domain, struct));
}

describe('Opinion order signing (EIP-712, BNB Chain)', () => {
  const message: CtfOrder = {
    salt: 91_827_364_554n,
    maker: safe,
    signer,
    taker: '0x0000000000000000000000000000000000000000',
    tokenId: yesToken,
    // 250 shares at 0.56: 140 USDT for 250 shares, both with 18 decimals.
    makerAmount: 140_000_000_000_000_000_000n,
    takerAmount: 250_000_000_000_000_000_000n,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: 0n,
    side: 0,
    signatureType: 2,
  };

  test('the signer is the address of the private key', () => {
    expect(signerAddress(privateKey)).toBe(signer);
    expect(signerAddress(privateKey.slice(2))).toBe(signer);
  });

  test('the signature is the deterministic (RFC 6979) secp256k1 signature of the hand-built digest', async () => {
    const digest = digestByHand(message);
    const expected = secp256k1.sign(digest, Buffer.from(privateKey.slice(2), 'hex'));
    const signature = await signOrder(privateKey, exchange, message);
    expect(signature).toBe(`0x${expected.toCompactHex()}${(27 + expected.recovery).toString(16)}`);
    // And it recovers to the signer.
    const recovered = expected.recoverPublicKey(digest).toRawBytes(false);
    expect(`0x${hex(keccak(recovered.slice(1)).slice(12))}`).toBe(signer.toLowerCase());
  });
});

describe('Opinion order amounts (18 decimals, exact price ratio)', () => {
  test('a limit buy spends amount × price in USDT for amount shares', () => {
    expect(orderAmounts('buy', 'limit', 250, 0.56)).toEqual({ makerAmount: 140_000_000_000_000_000_000n, takerAmount: 250_000_000_000_000_000_000n });
  });

  test('a limit sell gives amount shares for amount × price', () => {
    expect(orderAmounts('sell', 'limit', 200, 0.33)).toEqual({ makerAmount: 200_000_000_000_000_000_000n, takerAmount: 66_000_000_000_000_000_000n });
  });

  test('the maker amount is cut to four significant digits and the price ratio kept exactly (57/100)', () => {
    // 123.456 × 0.57 = 70.36992 USDT, cut to 70.36, then to a whole multiple of 57 wei.
    expect(orderAmounts('buy', 'limit', 123.456, 0.57)).toEqual({ makerAmount: 70_359_999_999_999_999_957n, takerAmount: 123_438_596_491_228_070_100n });
  });

  test('a market sell gives its shares with no taker amount; a market buy needs the worst price it accepts', () => {
    expect(orderAmounts('sell', 'market', 10, undefined)).toEqual({ makerAmount: 10_000_000_000_000_000_000n, takerAmount: 0n });
    expect(orderAmounts('buy', 'market', 10, 0.6)).toEqual({ makerAmount: 6_000_000_000_000_000_000n, takerAmount: 0n });
    expect(() => orderAmounts('buy', 'market', 10, undefined)).toThrow(/params.price/);
  });

  test('prices outside (0, 1) or finer than six decimals are refused', () => {
    expect(() => orderAmounts('buy', 'limit', 10, 1)).toThrow(/params.price/);
    expect(() => orderAmounts('buy', 'limit', 10, 0.1234567)).toThrow(/params.price/);
  });
});
