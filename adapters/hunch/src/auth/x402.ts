import { randomBytes } from 'node:crypto';
import { PredgateError } from '@predgate/core';
import { getAddress } from 'viem';
import type { Hex, PrivateKeyAccount } from 'viem';
import type { PaymentRequirement } from '../api/schemas.js';
import { venueId } from '../venue.js';

/**
 * Paying a bet over x402: the venue answers the unpaid trade with a 402 that
 * names what to pay; the payer signs an EIP-3009 `transferWithAuthorization`
 * of Base USDC for exactly that, and the same request is sent again with the
 * signed authorization in `X-PAYMENT`. Nothing moves until the venue settles
 * the authorization on chain, so a challenge asking for anything but the bet
 * is refused before signing.
 */

export const baseUsdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
/** The venue's settlement wallet, pinned: a challenge naming another payee is not signed. */
export const hunchPayee = '0x4F0d7622984b38DfB2D1F86F10eEE564566C09F2';
const baseChainId = 8453;
/** How far back the authorization is valid from, for clocks slightly ahead of the chain's. */
const clockSkewSeconds = 60;

const transferWithAuthorization = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

/** The challenge's `exact` payment on Base, checked to be the bet and nothing else. */
export function requirementFor(accepts: PaymentRequirement[], atomicAmount: bigint): PaymentRequirement {
  const requirement = accepts.find((each) => each.scheme === 'exact' && each.network === 'base');
  const refuse = (field: string, reason: string) =>
    new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: payment challenge refused, nothing was signed: ${reason}`, {
      exchange: venueId,
      detail: { endpoint: 'POST /trade', field },
    });
  if (!requirement) throw refuse('accepts', 'no "exact" payment on Base is offered');
  if (requirement.asset.toLowerCase() !== baseUsdc.toLowerCase()) throw refuse('accepts.asset', 'the asset is not Base USDC');
  if (requirement.payTo.toLowerCase() !== hunchPayee.toLowerCase()) throw refuse('accepts.payTo', "the payee is not Hunch's settlement wallet");
  if (BigInt(requirement.maxAmountRequired) !== atomicAmount) throw refuse('accepts.maxAmountRequired', 'the amount differs from the bet');
  return requirement;
}

/** The `X-PAYMENT` header: base64 of the signed authorization, valid from a minute ago for the challenge's timeout. */
export async function paymentHeader(
  account: PrivateKeyAccount,
  requirement: PaymentRequirement,
  nowMs: number,
  nonce: Hex = `0x${randomBytes(32).toString('hex')}`,
) {
  const now = Math.floor(nowMs / 1000);
  const authorization = {
    from: account.address,
    to: getAddress(requirement.payTo),
    value: requirement.maxAmountRequired,
    validAfter: String(now - clockSkewSeconds),
    validBefore: String(now + requirement.maxTimeoutSeconds),
    nonce,
  };
  const signature = await account.signTypedData({
    domain: { name: requirement.extra.name, version: requirement.extra.version, chainId: baseChainId, verifyingContract: getAddress(requirement.asset) },
    types: { TransferWithAuthorization: transferWithAuthorization },
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  const payment = { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature, authorization } };
  return Buffer.from(JSON.stringify(payment), 'utf8').toString('base64');
}
