// The MCP server at POST /mcp with the official MCP client over Streamable HTTP: the tools of
// DESIGN §12, and its confirmation rules. Money moves only after the user's yes: by elicitation
// (accept with confirm: true; decline, cancel and confirm: false move nothing), or, for a client
// without elicitation, by a confirmationId bound to the account and the terms, single use, five
// minutes. Balances are read through the API, not from the tools' text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { freshAddress, fundHotWallet, onChainBalance } from '../helpers/withdrawals.js';
import { callTool, ElicitationScript, httpTransport, mcpClient, startClientsServer, type ClientsServer } from './support.js';

let env: ClientsServer;
const clients: Client[] = [];

beforeAll(async () => {
  env = await startClientsServer();
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await env?.close();
});

async function connect(key: string, script?: ElicitationScript): Promise<Client> {
  const client = await mcpClient(httpTransport(env.url, key), script);
  clients.push(client);
  return client;
}

const fiatAvailable = async (
  user: { api: { getBalance(): Promise<{ balances: { currency: string; available: string }[] }> } },
  currency = 'USD',
) => (await user.api.getBalance()).balances.find((b) => b.currency === currency)!.available;

describe('MCP over Streamable HTTP', () => {
  it('lists the tools of DESIGN §12 (and get_limits of §17) with titles, input schemas and annotations', async () => {
    const alice = await env.user();
    const client = await connect(alice.key);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'check_account',
      'create_link',
      'get_balances',
      'get_deposit_address',
      'get_limits',
      'list_transfers',
      'quote_transfer',
      'send_money',
      'withdraw',
    ]);
    for (const tool of tools) expect(tool.title, tool.name).toBeTruthy();
    expect(byName.send_money!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.withdraw!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.quote_transfer!.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(byName.send_money!.inputSchema.properties!).sort()).toEqual([
      'amount',
      'confirmationId',
      'currency',
      'note',
      'paymentMethod',
      'to',
    ]);
    expect(byName.send_money!.description).toMatch(/confirmationId/);
  });

  it('refuses a request without a key, and another account’s session', async () => {
    const refused = await fetch(`${env.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    const alice = await env.user();
    const mallory = await env.user();
    const transport = httpTransport(env.url, alice.key);
    const client = await mcpClient(transport);
    clients.push(client);
    const foreign = await fetch(`${env.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${mallory.key}`,
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(foreign.status).toBe(404);
    // Ending the session (DELETE) ends it for good: its id is unknown afterwards.
    const headers = { authorization: `Bearer ${alice.key}`, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' };
    expect((await fetch(`${env.url}/mcp`, { method: 'DELETE', headers })).status).toBe(200);
    const ended = await fetch(`${env.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(ended.status).toBe(404);
    const noSession = await fetch(`${env.url}/mcp`, {
      method: 'GET',
      headers: { authorization: `Bearer ${alice.key}`, accept: 'text/event-stream' },
    });
    expect(noSession.status).toBe(400);
  });

  it('with elicitation: moves money only on accept with confirm: true', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.setUpCard(alice);
    const script = new ElicitationScript();
    const client = await connect(alice.key, script);
    const send = { to: bob.email, amount: '10', currency: 'USD' };

    for (const answer of [
      { action: 'decline' as const },
      { action: 'cancel' as const },
      { action: 'accept' as const, content: { confirm: false } },
    ]) {
      script.next = answer;
      const result = await callTool(client, 'send_money', send);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ status: 'not_confirmed', action: answer.action });
    }
    expect(await fiatAvailable(bob)).toBe('0.00');
    expect((await alice.api.listTransfers()).transfers).toHaveLength(0);
    expect(script.asked).toHaveLength(3);
    // The question names the recipient (name and handle), amount, currency, fee and the total.
    expect(script.asked[0]!.message).toContain(bob.handle);
    expect(script.asked[0]!.message).toContain(bob.name.split(' ')[0]!);
    expect(script.asked[0]!.message).toMatch(/10\.00 USD.*Fee 0\.25 USD.*10\.25 USD/s);

    script.next = { action: 'accept', content: { confirm: true } };
    const sent = await callTool(client, 'send_money', send);
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent.transfer).toMatchObject({
      amount: '10.00',
      fee: '0.25',
      status: 'completed',
      recipientHandle: bob.handle,
    });
    expect(await fiatAvailable(bob)).toBe('10.00');
  });

  it('with elicitation: a card not set up and an unknown recipient are tool errors with the code, and nothing is asked or moved', async () => {
    const alice = await env.user();
    const bob = await env.user();
    const script = new ElicitationScript();
    const client = await connect(alice.key, script);
    const noCard = await callTool(client, 'send_money', { to: bob.handle, amount: '5', currency: 'EUR' });
    expect(noCard.isError).toBe(true);
    expect(noCard.structuredContent).toMatchObject({ code: 'card_setup_required' });
    expect(noCard.text).toMatch(/create_link/);
    const noBankDebit = await callTool(client, 'send_money', { to: bob.handle, amount: '5', currency: 'USD', paymentMethod: 'ach' });
    expect(noBankDebit).toMatchObject({ isError: true, structuredContent: { code: 'ach_setup_required', needsBankDebitSetup: true } });
    const nobody = await callTool(client, 'send_money', { to: 'nobody-here@example.com', amount: '5', currency: 'USD' });
    expect(nobody.structuredContent).toMatchObject({ code: 'recipient_not_found' });
    const nobodyCoin = await callTool(client, 'send_money', { to: 'PA-ZZZZZZZZ', amount: '5', currency: 'USDC' });
    expect(nobodyCoin).toMatchObject({ isError: true, structuredContent: { code: 'recipient_not_found' } });
    // The card and bank questions came only after the terms were accepted; the unknown recipients were never asked about.
    expect(script.asked).toHaveLength(2);
    expect(await fiatAvailable(bob, 'EUR')).toBe('0.00');
  });

  it('without elicitation: the first call moves nothing; changed terms, foreign and reused ids are refused; money moves once', async () => {
    const alice = await env.user();
    const bob = await env.user();
    const mallory = await env.user();
    await env.fund(alice, 50_000_000n);
    const client = await connect(alice.key);
    const send = { to: bob.handle, amount: '10', currency: 'USDC' };

    const first = await callTool(client, 'send_money', send);
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({
      status: 'confirmation_required',
      confirmationId: expect.stringMatching(/^conf_/),
      terms: { fee: 0.149, recipientReceives: 9.851 },
    });
    const confirmationId = first.structuredContent.confirmationId as string;
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('0.000000');

    const changed = await callTool(client, 'send_money', { ...send, amount: '11', confirmationId });
    expect(changed).toMatchObject({ isError: true, structuredContent: { code: 'confirmation_terms_changed' } });
    const foreign = await callTool(await connect(mallory.key), 'send_money', { ...send, confirmationId });
    expect(foreign).toMatchObject({ isError: true, structuredContent: { code: 'confirmation_not_found' } });
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('0.000000');

    const confirmed = await callTool(client, 'send_money', { ...send, confirmationId });
    expect(confirmed.isError).toBeFalsy();
    expect(confirmed.structuredContent).toMatchObject({ status: 'complete', amount: 10, recipientAmount: 9.851 });
    const again = await callTool(client, 'send_money', { ...send, confirmationId });
    expect(again).toMatchObject({ isError: true, structuredContent: { code: 'confirmation_used' } });
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('9.851000');
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('40.000000');
  });

  it('by phone, names a recipient outside the public directory by the number only, and sends to it after the yes', async () => {
    const alice = await env.user();
    const carol = await env.user();
    await env.fund(alice, 20_000_000n);
    const phone = `+1415556${String(Date.now()).slice(-4)}`;
    expect((await carol.api.updateAccount({ body: { phone } })).phone).toBe(phone);
    const client = await connect(alice.key);
    const send = { to: phone, amount: '10', currency: 'USDC' };
    const quote = await callTool(client, 'quote_transfer', send);
    expect(quote.isError, quote.text).toBeFalsy();
    expect(quote.structuredContent).toMatchObject({ rail: 'stablecoin', recipient: { phone }, recipientReceives: 9.851 });
    expect(quote.text).toContain(`the account with phone number "${phone}"`);
    for (const secret of [carol.handle, carol.name.split(' ')[0]!]) {
      expect(quote.text).not.toContain(secret);
      expect(JSON.stringify(quote.structuredContent)).not.toContain(secret);
    }
    const first = await callTool(client, 'send_money', send);
    expect(first.text).not.toContain(carol.handle);
    const confirmed = await callTool(client, 'send_money', { ...send, confirmationId: first.structuredContent.confirmationId });
    expect(confirmed.isError, confirmed.text).toBeFalsy();
    expect((await carol.api.getStablecoinBalance()).USDC).toBe('9.851000');
  });

  it('withdraws after elicitation, and by confirmationId to the address that was confirmed', async () => {
    const alice = await env.user();
    await env.fund(alice, 20_000_000n);
    await fundHotWallet(env.server, 20_000_000n);
    const EXTERNAL = freshAddress();
    const script = new ElicitationScript();
    const asking = await connect(alice.key, script);
    const withdrawn = await callTool(asking, 'withdraw', { amount: '5', currency: 'USDC', address: EXTERNAL });
    expect(withdrawn.isError, withdrawn.text).toBeFalsy();
    expect(withdrawn.structuredContent).toMatchObject({ gross: 5, fee: 0.0745, net: 4.9255, address: EXTERNAL });
    expect(script.asked[0]!.message).toContain(EXTERNAL);
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('15.000000');

    const plain = await connect(alice.key);
    const first = await callTool(plain, 'withdraw', { amount: 2, currency: 'USDC', address: EXTERNAL });
    expect(first.structuredContent).toMatchObject({ status: 'confirmation_required', terms: { address: EXTERNAL, net: 1.9702 } });
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('15.000000');
    const confirmed = await callTool(plain, 'withdraw', {
      amount: '2.00',
      currency: 'usdc',
      address: EXTERNAL,
      confirmationId: first.structuredContent.confirmationId,
    });
    expect(confirmed.isError).toBeFalsy();
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('13.000000');
    // What the confirmations allowed reached the address, once each: 4.9255 + 1.9702.
    expect(await onChainBalance(env.server, EXTERNAL)).toBe(6_895_700n);
  });

  it('refuses an expired confirmation', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.setUpCard(alice);
    const client = await connect(alice.key);
    const send = { to: bob.handle, amount: '3', currency: 'GBP' };
    const first = await callTool(client, 'send_money', send);
    const advanced = await env.server.request('POST', '/test-helpers/clock/advance', { body: { days: 1 } });
    expect(advanced.status).toBe(200);
    const late = await callTool(client, 'send_money', { ...send, confirmationId: first.structuredContent.confirmationId });
    expect(late).toMatchObject({ isError: true, structuredContent: { code: 'confirmation_expired' } });
    expect(await fiatAvailable(bob, 'GBP')).toBe('0.00');
  });

  it('answers the read tools and offers setup links by URL elicitation', async () => {
    const alice = await env.user();
    const bob = await env.user();
    const script = new ElicitationScript();
    script.next = { action: 'accept' };
    const client = await connect(alice.key, script);
    expect(await callTool(client, 'check_account', { email: bob.email })).toMatchObject({
      structuredContent: { exists: true, agentHandle: bob.handle },
    });
    expect(await callTool(client, 'check_account', {})).toMatchObject({ isError: true, structuredContent: { code: 'invalid_request' } });
    const balances = await callTool(client, 'get_balances', {});
    expect(balances.structuredContent.stablecoin).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect(await callTool(client, 'get_deposit_address', {})).toMatchObject({ structuredContent: { address: alice.depositAddress } });
    const quote = await callTool(client, 'quote_transfer', { to: bob.handle, amount: '100', currency: 'USD', paymentMethod: 'ach' });
    expect(quote.structuredContent).toMatchObject({ rail: 'fiat', fee: '0.80', totalDeducted: '100.80' });
    expect(await callTool(client, 'quote_transfer', { to: bob.handle, amount: '0.001', currency: 'USD' })).toMatchObject({
      isError: true,
      structuredContent: { code: 'invalid_amount' },
    });
    const link = await callTool(client, 'create_link', { kind: 'card' });
    expect(link.structuredContent).toMatchObject({ kind: 'card', url: expect.stringContaining('http'), offeredToUser: 'accept' });
    expect(script.asked).toEqual([expect.objectContaining({ mode: 'url', url: link.structuredContent.url })]);
    expect(await callTool(client, 'create_link', { kind: 'funding' })).toMatchObject({
      isError: true,
      structuredContent: { code: 'invalid_request' },
    });
    expect(await callTool(client, 'list_transfers', { rail: 'stablecoin', limit: 5 })).toMatchObject({
      structuredContent: { transfers: [], nextCursor: null },
    });
  });
});
