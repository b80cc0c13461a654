// Users for a chaos run, made through the API as any client would: registered, with a saved card
// (the sandbox setup page), and with USDC deposited on chain and credited by the deposit watcher.
import type { ChaosChain } from './chaos-chain.js';
import { callOnce, callUntilAnswered } from './retrying-client.js';

export interface ChaosUser {
  email: string;
  key: string;
  handle: string;
  depositAddress: string;
}

async function must(baseUrl: string, method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<any> {
  const answer = await callOnce(baseUrl, { method, path, ...options });
  if (!answer || answer.status >= 300)
    throw new Error(`${method} ${path}: ${answer ? `${answer.status} ${JSON.stringify(answer.body)}` : 'no answer'}`);
  return answer.body;
}

export async function registerChaosUser(baseUrl: string, label: string): Promise<ChaosUser> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const body = await must(baseUrl, 'POST', '/agent/register', {
    body: { email, password: 'correct horse battery', name: `Chaos ${label.replace(/[^a-z]/gi, '')}` },
  });
  return { email, key: body.apiKey, handle: body.agentHandle, depositAddress: body.depositAddress };
}

/**
 * Saves a sandbox card (or, with '/agent/bank-debit-link', a bank debit) that always succeeds,
 * through the setup page as a browser would submit it.
 */
export async function saveCard(
  baseUrl: string,
  user: ChaosUser,
  linkEndpoint: '/agent/setup-link' | '/agent/bank-debit-link' = '/agent/setup-link',
): Promise<void> {
  const link = await must(baseUrl, 'POST', linkEndpoint, { key: user.key });
  const response = await fetch(baseUrl + new URL(link.url).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=succeed',
  });
  if (response.status !== 200) throw new Error(`${linkEndpoint} page: ${response.status}`);
}

export async function usdcBalanceMinor(baseUrl: string, user: ChaosUser): Promise<bigint> {
  const answer = await callUntilAnswered(() => baseUrl, { method: 'GET', path: '/stablecoin/balance', key: user.key });
  const [whole, fraction = ''] = String(answer.body.USDC).split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** GET /balance of the fiat rail: the available amount of `currency` in minor units (2 decimals). */
export async function fiatAvailableMinor(baseUrl: string, user: ChaosUser, currency: string): Promise<bigint> {
  const answer = await callUntilAnswered(() => baseUrl, { method: 'GET', path: '/balance', key: user.key });
  const entry = (answer.body.balances as { currency: string; available: string }[]).find((b) => b.currency === currency);
  if (!entry) return 0n;
  const [whole, fraction = ''] = entry.available.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Mints USDC to each user's deposit address and waits until the deposit watcher has credited all. */
export async function fundUsdc(baseUrl: string, chain: ChaosChain, users: ChaosUser[], amountMinor: bigint): Promise<void> {
  for (const user of users) await chain.mint(user.depositAddress, 'USDC', amountMinor);
  const deadline = Date.now() + 60_000;
  for (const user of users) {
    while ((await usdcBalanceMinor(baseUrl, user)) < amountMinor) {
      if (Date.now() > deadline) throw new Error(`deposit to ${user.handle} not credited in 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
