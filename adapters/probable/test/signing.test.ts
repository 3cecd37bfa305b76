import { eip712, replayedAdapter } from '@predgate/core/testkit';
import { recoverAddress } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { l1Headers } from '../src/auth/headers.js';
import plugin from '../src/index.js';

/**
 * Signatures checked by recovering the signer from a digest built by hand
 * from the EIP-712 rules (type strings, 32-byte ABI words, keccak from the
 * testkit's @noble encoder): the digest never goes through viem's typed-data
 * code, which the adapter signs with.
 */

// A well-known development key (the first Hardhat account), never a real one.
const privateKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const signer = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const exchange = '0xF99F5367ce708c66F0860B77B4331301A5597c86';
const safe = '0x3BE5a1D0C8e4f8a9B2D7C6E5f4A3b2c1D0e9f8a7';
const yes = '42922145754268586232753586497078434283008194607014016171721522108902381902084';
const now = Date.UTC(2026, 4, 14, 14, 5);
const { addressWord, domainSeparator, hex, keccak, keccakText, typedDataDigest, uintWord } = eip712;

const orderType =
  'Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)';

interface WireOrder {
  salt: string;
  maker: string;
  signer: string;
  taker: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  expiration: string;
  nonce: string;
  feeRateBps: string;
  side: 'BUY' | 'SELL';
  signatureType: number;
  signature: string;
}

function orderDigest(order: WireOrder, verifyingContract = exchange): Hex {
  const struct = keccak(
    keccakText(orderType),
    uintWord(BigInt(order.salt)),
    addressWord(order.maker),
    addressWord(order.signer),
    addressWord(order.taker),
    uintWord(BigInt(order.tokenId)),
    uintWord(BigInt(order.makerAmount)),
    uintWord(BigInt(order.takerAmount)),
    uintWord(BigInt(order.expiration)),
    uintWord(BigInt(order.nonce)),
    uintWord(BigInt(order.feeRateBps)),
    uintWord(order.side === 'BUY' ? 0 : 1),
    uintWord(order.signatureType),
  );
  return hex(typedDataDigest(domainSeparator('Probable CTF Exchange', '1', 56, verifyingContract), struct)) as Hex;
}

const fixtures = new URL('./fixtures', import.meta.url).pathname;
const triple = { apiKey: 'test-api-key', apiSecret: 'cHJlZGdhdGUtcHJvYmFibGUtdGVzdC1zZWNyZXQtMDE=', passphrase: 'test-passphrase' };

async function built(credentials: Record<string, string | number>, params: Record<string, unknown> = {}) {
  const adapter = replayedAdapter({ plugin, fixtures, now, credentials });
  try {
    const answer = await adapter.buildOrder!({ marketId: '4512', outcomeId: yes, side: 'buy', type: 'limit', amount: 10, price: 0.6, ...params });
    return answer.signedOrder as unknown as WireOrder;
  } finally {
    await adapter.close?.();
  }
}

describe('Probable order signing (EIP-712, "Probable CTF Exchange" v1, BNB Chain 56)', () => {
  test("the adapter's built order recovers to the key's address under Probable's exchange domain", async () => {
    const order = await built({ privateKey, ...triple });
    expect(order).toMatchObject({ maker: signer, signer, makerAmount: '6000000000000000000', takerAmount: '10000000000000000000', signatureType: 0 });
    expect(await recoverAddress({ hash: orderDigest(order), signature: order.signature as Hex })).toBe(signer);
  });

  test('a sell for a Safe: the Safe is maker, the key still signs, and the signature is bound to the exchange', async () => {
    const order = await built({ privateKey, ...triple, signatureType: 2, funderAddress: safe.toLowerCase() }, { side: 'sell', amount: 7.5, price: 0.42 });
    expect(order).toMatchObject({
      maker: safe,
      signer,
      side: 'SELL',
      makerAmount: '7500000000000000000',
      takerAmount: '3150000000000000000',
      signatureType: 2,
    });
    expect(await recoverAddress({ hash: orderDigest(order), signature: order.signature as Hex })).toBe(signer);
    // Under another verifying contract the same signature names someone else.
    const elsewhere = await recoverAddress({ hash: orderDigest(order, '0x5F45344126D6488025B0b84A3A8189F2487a7246'), signature: order.signature as Hex });
    expect(elsewhere).not.toBe(signer);
  });

  test('a configured exchange address is the verifying contract signed for', async () => {
    const other = '0x1111111111111111111111111111111111111111';
    const adapter = replayedAdapter({ plugin, fixtures, now, credentials: { privateKey, ...triple }, config: { exchangeAddress: other } });
    try {
      const answer = await adapter.buildOrder!({ marketId: '4512', outcomeId: yes, side: 'buy', type: 'limit', amount: 1, price: 0.5 });
      const order = answer.signedOrder as unknown as WireOrder;
      expect(await recoverAddress({ hash: orderDigest(order, other), signature: order.signature as Hex })).toBe(signer);
    } finally {
      await adapter.close?.();
    }
  });
});

describe('Probable L1 login (ClobAuth under "ClobAuthDomain" v1, chain 56)', () => {
  test('the prob_signature header recovers to prob_address over the ClobAuth attestation', async () => {
    const timestamp = Math.floor(now / 1000);
    const headers = await l1Headers(privateKeyToAccount(privateKey), timestamp);
    expect(headers).toMatchObject({ prob_address: signer, prob_timestamp: String(timestamp), prob_nonce: '0' });
    const domain = keccak(keccakText('EIP712Domain(string name,string version,uint256 chainId)'), keccakText('ClobAuthDomain'), keccakText('1'), uintWord(56));
    const struct = keccak(
      keccakText('ClobAuth(address address,string timestamp,uint256 nonce,string message)'),
      addressWord(signer),
      keccakText(String(timestamp)),
      uintWord(0),
      keccakText('This message attests that I control the given wallet'),
    );
    const digest = hex(typedDataDigest(domain, struct)) as Hex;
    expect(await recoverAddress({ hash: digest, signature: headers.prob_signature as Hex })).toBe(signer);
  });
});
