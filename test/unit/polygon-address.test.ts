// Polygon address checks (DESIGN §6): shape, EIP-55 checksum when mixed case, never the zero address.
import { describe, expect, it } from 'vitest';
import { parsePolygonAddress } from '../../src/stablecoin/polygon-address.js';
import { AppError } from '../../src/platform/errors.js';

// The EIP-55 test vectors (eips.ethereum.org/EIPS/eip-55).
const CHECKSUMMED = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
];

function refusal(input: string): AppError {
  try {
    parsePolygonAddress(input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`${input} was accepted`);
}

describe('parsePolygonAddress', () => {
  it.each(CHECKSUMMED)('accepts %s and answers it checksummed', (address) => {
    expect(parsePolygonAddress(address)).toBe(address);
  });

  it('accepts all-lowercase and all-uppercase (no checksum) and answers the checksummed form', () => {
    expect(parsePolygonAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(CHECKSUMMED[0]);
    expect(parsePolygonAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(CHECKSUMMED[0]);
    expect(parsePolygonAddress('  0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ')).toBe(CHECKSUMMED[0]);
  });

  it.each([
    ['one letter of the checksum flipped', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
    ['another flipped', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ])('refuses a mixed-case address with a bad checksum: %s', (_what, address) => {
    const error = refusal(address);
    expect(error.code).toBe('invalid_address');
    expect(error.detail).toMatch(/checksum/);
  });

  it.each([
    ['too short', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea'],
    ['too long', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00'],
    ['no 0x', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00'],
    ['0X prefix', '0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ['a non-hex digit', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg'],
    ['empty', ''],
    ['an ENS name', 'vitalik.eth'],
    ['inner spaces', '0x5aaeb6053f3e94c9 b9a09f33669435e7ef1beae'],
  ])('refuses %s', (_what, address) => {
    const error = refusal(address);
    expect(error.code).toBe('invalid_address');
    expect(error.detail).toMatch(/0x followed by 40 hexadecimal digits/);
  });

  it('refuses the zero address', () => {
    expect(refusal('0x0000000000000000000000000000000000000000').detail).toMatch(/zero address/);
  });

  it('names the field in its messages', () => {
    expect(() => parsePolygonAddress('nope', 'to')).toThrow(/^to must be a Polygon address/);
  });
});
