// Polygon (EVM) addresses given by users, e.g. where to withdraw to (DESIGN §6): 0x and 40 hex
// digits; a mixed-case address must carry a valid EIP-55 checksum (it catches typos), while an
// all-lowercase or all-uppercase one carries no checksum and is taken as is, as EIP-55 says; the
// zero address is refused, since tokens sent there are burnt. Valid addresses come back checksummed.
import { getAddress, isAddress, zeroAddress, type Address } from 'viem';
import { AppError } from '../platform/errors.js';

const SHAPE = /^0x[0-9a-fA-F]{40}$/;

export function parsePolygonAddress(input: string, field = 'address'): Address {
  const raw = input.trim();
  if (!SHAPE.test(raw)) {
    throw new AppError('invalid_address', `${field} must be a Polygon address: 0x followed by 40 hexadecimal digits.`);
  }
  const digits = raw.slice(2);
  const uncased = digits === digits.toLowerCase() || digits === digits.toUpperCase();
  // viem's strict check treats all-uppercase as mixed case; EIP-55 does not, so it is lowercased first.
  if (!uncased && !isAddress(raw, { strict: true })) {
    throw new AppError(
      'invalid_address',
      `${field} has an invalid EIP-55 checksum (mixed upper and lower case that does not match); check it for typos, or send it all lowercase.`,
    );
  }
  const address = getAddress(raw.toLowerCase());
  if (address === getAddress(zeroAddress))
    throw new AppError('invalid_address', `${field} is the zero address; tokens sent there are lost.`);
  return address;
}
