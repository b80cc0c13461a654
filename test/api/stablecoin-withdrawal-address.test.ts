// PUT and GET /stablecoin/withdrawal-address: the default address withdrawals without an address go
// to. Bad addresses are 400 invalid_address and change nothing, and so are the addresses a withdrawal
// would refuse (peerpay's hot wallet, a token contract, any deposit address); good ones are saved checksummed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';

let server: TestServer;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  user = await registerUser(server);
  other = await registerUser(server);
});

afterAll(async () => {
  await server.close();
});

const put = (who: TestUser, body: unknown) => server.request('PUT', '/stablecoin/withdrawal-address', { key: who.key, body });
const saved = async (who: TestUser) => {
  const response = await server.request('GET', '/stablecoin/withdrawal-address', { key: who.key });
  expect(response.status).toBe(200);
  return response.body.address;
};

const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('the default withdrawal address', () => {
  it('is null until one is saved', async () => {
    expect(await saved(user)).toBeNull();
  });

  it('is saved and answered in checksummed form, however it was written', async () => {
    const response = await put(user, { address: CHECKSUMMED.toLowerCase() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ address: CHECKSUMMED });
    expect(await saved(user)).toBe(CHECKSUMMED);
    expect((await put(user, { address: `0x${CHECKSUMMED.slice(2).toUpperCase()}` })).body).toEqual({ address: CHECKSUMMED });
  });

  it('is replaced by a later PUT', async () => {
    const other = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect((await put(user, { address: other })).body).toEqual({ address: other });
    expect(await saved(user)).toBe(other);
    expect((await put(user, { address: CHECKSUMMED })).status).toBe(200);
    expect(await saved(user)).toBe(CHECKSUMMED);
  });

  it('belongs to its user only', async () => {
    const other = await registerUser(server);
    expect(await saved(other)).toBeNull();
    expect((await put(other, { address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' })).status).toBe(200);
    expect(await saved(user)).toBe(CHECKSUMMED);
  });

  it.each([
    ['too short (39 hex digits)', '0x52908400098527886E0F7030069857D2E4169EE', 'invalid_address'],
    ['too long (41 hex digits)', '0x52908400098527886E0F7030069857D2E4169EE70', 'invalid_address'],
    ['a bad checksum', '0x52908400098527886E0F7030069857D2E4169Ee7', 'invalid_address'],
    ['the zero address', '0x0000000000000000000000000000000000000000', 'invalid_address'],
    ['non-hex digits', '0x52908400098527886E0F7030069857D2E4169EGG', 'invalid_address'],
    ['no 0x', '52908400098527886E0F7030069857D2E4169EE7', 'invalid_address'],
    ['an ENS name', 'alice.eth', 'invalid_address'],
  ])('refuses %s with 400 %s and keeps the saved address', async (_what, address, code) => {
    const problem = expectProblem(await put(user, { address }), 400, code);
    expect(problem.detail).toMatch(/address/);
    expect(await saved(user)).toBe(CHECKSUMMED);
  });

  it.each([
    ["peerpay's hot wallet", () => server.deps.wallets.hotWallet.address],
    ['the USDC token contract', () => server.deps.chain.tokens.USDC],
    ['the EURC token contract, in lower case', () => server.deps.chain.tokens.EURC.toLowerCase()],
    ['the caller’s own deposit address', () => user.depositAddress],
    ['another user’s deposit address, in lower case', () => other.depositAddress.toLowerCase()],
  ])('refuses %s as a withdrawal would (400 invalid_address) and keeps the saved address', async (_what, address) => {
    const problem = expectProblem(await put(user, { address: address() }), 400, 'invalid_address');
    expect(problem.detail).toMatch(/address|contract|hot wallet/);
    expect(await saved(user)).toBe(CHECKSUMMED);
  });

  it.each([
    ['no address', {}],
    ['an empty address', { address: '' }],
    ['address as a number', { address: 42 }],
    ['an unknown field', { address: CHECKSUMMED, chain: 'MATIC' }],
  ])('refuses a body with %s as invalid_request', async (_what, body) => {
    expectProblem(await put(user, body), 400, 'invalid_request');
    expect(await saved(user)).toBe(CHECKSUMMED);
  });

  it('refuses malformed JSON and needs a key', async () => {
    const raw = await server.request('PUT', '/stablecoin/withdrawal-address', {
      key: user.key,
      rawBody: '{"address": "0x',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(raw, 400, 'malformed_json');
    expectProblem(await server.request('PUT', '/stablecoin/withdrawal-address', { body: { address: CHECKSUMMED } }), 401, 'unauthorized');
    expectProblem(await server.request('GET', '/stablecoin/withdrawal-address'), 401, 'unauthorized');
  });
});
