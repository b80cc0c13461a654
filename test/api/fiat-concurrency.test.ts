// Fiat transfers between the same people in both directions at once. Each transfer locks its
// sender's account row and inserts a row that references the recipient's; two people paying each
// other at the same moment must both be answered 200 (on PostgreSQL a lock that conflicts with the
// reference's key-share lock made these deadlock and answer 500), and the books must stay balanced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { balances, send, setUp } from '../helpers/fiat.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('fiat transfers in both directions at once', () => {
  const people: TestUser[] = [];
  const ROUNDS = 8;

  beforeAll(async () => {
    for (let i = 0; i < 4; i++) {
      const user = await registerUser(server);
      await setUp(server, user, '/agent/setup-link');
      people.push(user);
    }
  });

  it('answers every transfer 200 while each pair pays each other concurrently, and the books balance', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const sends = [];
      for (const a of people) {
        for (const b of people) {
          if (a === b) continue;
          sends.push(send(server, a, { recipientHandle: b.handle, amount: 1, currency: 'USD', paymentMethod: 'instant' }));
        }
      }
      for (const response of await Promise.all(sends)) statuses.push(response.status);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(ROUNDS * people.length * (people.length - 1));
    // Everyone sent and received the same number of 1.00 USD transfers: each holds what it received.
    for (const person of people) {
      expect((await balances(server, person)).USD?.available).toBe(`${ROUNDS * (people.length - 1)}.00`);
    }
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});
