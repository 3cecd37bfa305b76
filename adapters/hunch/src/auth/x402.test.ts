import { eip712 } from '@predgate/core/testkit';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import type { PaymentRequirement } from '../api/schemas.js';
import { baseUsdc, hunchPayee, paymentHeader, requirementFor } from './x402.js';

const { addressWord, bytesOf, domainSeparator, ethSign, keccak, keccakText, typedDataDigest, uintWord } = eip712;
const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const requirement: PaymentRequirement = {
  scheme: 'exact',
  network: 'base',
  maxAmountRequired: '5000000',
  resource: 'https://www.playhunch.xyz/api/agent/v1/trade#0x4f1c',
  payTo: hunchPayee,
  asset: baseUsdc.toLowerCase(),
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};

describe('x402 payment for a bet', () => {
  test('X-PAYMENT carries an EIP-3009 TransferWithAuthorization of Base USDC signed as computed by hand', async () => {
    const nonce = `0x${'ab'.repeat(32)}` as const;
    const now = 1_787_227_500_000;
    const header = await paymentHeader(privateKeyToAccount(key), requirement, now, nonce);
    const payment = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as {
      x402Version: number;
      scheme: string;
      network: string;
      payload: { signature: string; authorization: Record<string, string> };
    };
    const from = privateKeyToAccount(key).address;
    expect(payment).toMatchObject({ x402Version: 1, scheme: 'exact', network: 'base' });
    expect(payment.payload.authorization).toEqual({
      from,
      to: hunchPayee,
      value: '5000000',
      validAfter: String(now / 1000 - 60),
      validBefore: String(now / 1000 + 300),
      nonce,
    });
    const structHash = keccak(
      keccakText('TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)'),
      addressWord(from),
      addressWord(hunchPayee),
      uintWord(5_000_000n),
      uintWord(now / 1000 - 60),
      uintWord(now / 1000 + 300),
      bytesOf(nonce),
    );
    const digest = typedDataDigest(domainSeparator('USD Coin', '2', 8453, baseUsdc), structHash);
    expect(payment.payload.signature).toBe(ethSign(digest, key));
  });

  test('each payment has a fresh random nonce, so two bets never share an authorization', async () => {
    const account = privateKeyToAccount(key);
    const decode = (header: string) =>
      (JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { payload: { authorization: { nonce: string } } }).payload.authorization.nonce;
    const [first, second] = await Promise.all([paymentHeader(account, requirement, 1_787_227_500_000), paymentHeader(account, requirement, 1_787_227_500_000)]);
    expect(decode(first)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(decode(first)).not.toBe(decode(second));
  });

  test.each([
    ['a payment on another network', { network: 'base-sepolia' }, 'accepts'],
    ['another asset', { asset: '0x0000000000000000000000000000000000000001' }, 'accepts.asset'],
    ['another payee', { payTo: '0x000000000000000000000000000000000000dEaD' }, 'accepts.payTo'],
    ['more than the bet', { maxAmountRequired: '5000001' }, 'accepts.maxAmountRequired'],
  ])('a challenge asking for %s is refused naming the field', (_name, change, field) => {
    expect(() => requirementFor([{ ...requirement, ...change }], 5_000_000n)).toThrow(
      expect.objectContaining({ code: 'EXCHANGE_NOT_AVAILABLE', detail: expect.objectContaining({ field }) }),
    );
  });
});
