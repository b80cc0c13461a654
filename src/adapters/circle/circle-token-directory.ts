// Circle names a transaction's token by its id; what address and how many decimals that id stands
// for never changes, so each is asked once (GET /v1/w3s/tokens/{id}) and kept. The cache belongs to
// the client that owns it and is bounded: a wallet may receive any number of unknown tokens.
import { tokenInfo, type CircleTokenInfo, type WireToken } from './circle-wire.js';

const MAX_TOKENS = 256;

export interface TokenDirectory {
  info(tokenId: string): Promise<CircleTokenInfo>;
}

export function createTokenDirectory(lookup: (tokenId: string) => Promise<WireToken>): TokenDirectory {
  const known = new Map<string, Promise<CircleTokenInfo>>();
  return {
    info(tokenId) {
      const cached = known.get(tokenId);
      if (cached !== undefined) return cached;
      const pending = lookup(tokenId).then(tokenInfo);
      // A failed lookup is not remembered: the next transaction asks again.
      pending.catch(() => known.delete(tokenId));
      if (known.size >= MAX_TOKENS) known.delete(known.keys().next().value as string);
      known.set(tokenId, pending);
      return pending;
    },
  };
}
