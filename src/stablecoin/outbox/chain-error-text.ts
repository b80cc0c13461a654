// A chain error as text that is safe to store and log. viem's full messages carry request details,
// among them the RPC URL, which for hosted Polygon nodes often contains an API key; its
// `shortMessage` says what failed without them.
import { BaseError } from 'viem';

const MAX_LENGTH = 300;

export function chainErrorText(error: unknown): string {
  if (error instanceof BaseError) return `${error.name}: ${error.shortMessage}`.slice(0, MAX_LENGTH);
  if (error instanceof Error) return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`.slice(0, MAX_LENGTH);
  return 'unknown error';
}
