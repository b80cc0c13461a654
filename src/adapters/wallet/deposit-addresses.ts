// Users' deposit addresses from their parent key's public half (BIP-32 public derivation): the
// child's public point is the parent's plus G × IL, one multiplication and one addition. Deriving
// the child's private key instead (HDKey.deriveChild, then its public key again for the address)
// costs 1.6 times as much, and every start of a new database derives 500 of these addresses
// (startup/seed-use.ts): 145-155 ms instead of 240-250 (decision 0071). The multiplication stays
// the constant-time one: IL comes from the chain code, which is kept as secret as the keys. Signing
// keys still come from the private derivation (hd-wallet-provider.ts); the two give the same
// address, which test/property/deposit-addresses.test.ts checks for random seeds and indexes.
import { createHmac } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { publicKeyToAddress } from 'viem/accounts';
import { bytesToHex, type Address } from 'viem';

/** The parent key's public half: its compressed public key and chain code. */
export interface PublicParent {
  publicKey: Uint8Array;
  chainCode: Uint8Array;
}

/**
 * The address of non-hardened child `index` of `parent`. `privateDerivation` answers for the one
 * index in about 2^127 whose tweak is not a valid scalar: BIP-32 then moves to the next index, and
 * the private derivation's own rule for it is the one every existing address was made with.
 */
export function depositAddressDeriver(parent: PublicParent, privateDerivation: (index: number) => Address): (index: number) => Address {
  const parentPoint = secp256k1.ProjectivePoint.fromHex(parent.publicKey);
  const message = new Uint8Array(37);
  message.set(parent.publicKey, 0);
  const indexView = new DataView(message.buffer, 33, 4);
  return (index) => {
    indexView.setUint32(0, index);
    // HMAC-SHA512 as BIP-32 defines it; node's own is a fifth of the cost of a script one.
    const tweak = BigInt(bytesToHex(createHmac('sha512', parent.chainCode).update(message).digest().subarray(0, 32)));
    if (tweak === 0n || tweak >= secp256k1.CURVE.n) return privateDerivation(index);
    const child = parentPoint.add(secp256k1.ProjectivePoint.BASE.multiply(tweak));
    if (child.equals(secp256k1.ProjectivePoint.ZERO)) return privateDerivation(index);
    return publicKeyToAddress(bytesToHex(child.toRawBytes(false)));
  };
}
