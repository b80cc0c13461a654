// The README's webhook receiver (section "Events and webhooks"), run as written: it verifies with the
// standardwebhooks package and prints the events a transfer sends it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/events/webhook-delivery.js';
import { registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { freePort } from '../helpers/free-port.js';
import { agentTransfer, fund } from '../helpers/stablecoin.js';

const readme = fs.readFileSync('README.md', 'utf8');
const section = readme.slice(readme.indexOf('## Events and webhooks'));
const receiverSource = /^```js\n([\s\S]*?)^```$/m.exec(section.slice(0, section.indexOf('\n## ', 3)))?.[1];
// In the repository's node_modules tree, so that `import 'standardwebhooks'` resolves as after an npm install.
const file = path.resolve('node_modules/.cache/peerpay-readme-receiver.mjs');

let server: TestServer;
let receiver: ChildProcess | undefined;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  receiver?.kill();
  await server.close();
  fs.rmSync(file, { force: true });
});

describe('the README webhook receiver', () => {
  it('verifies and prints what peerpay delivers', async () => {
    expect(receiverSource, 'a ```js block in "Events and webhooks"').toBeDefined();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, receiverSource!);
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const port = await freePort();
    const created = await server.request('POST', '/webhook-endpoints', { key: recipient.key, body: { url: `http://127.0.0.1:${port}/` } });
    expect(created.status).toBe(201);
    receiver = spawn(process.execPath, [file], {
      env: { ...process.env, PEERPAY_WEBHOOK_SECRET: created.body.secret, PORT: String(port) },
    });
    let output = '';
    const printed = new Promise<void>((resolve) =>
      receiver!.stdout!.on('data', (d) => {
        output += d;
        if (output.includes('\n')) resolve();
      }),
    );
    await fund(server, sender, 5_000_000n);
    const sent = await agentTransfer(server, sender, { to: recipient.handle, amount: 1, currency: 'USDC' });
    expect(sent.status).toBe(200);
    // The receiver may still be starting: deliver until it has answered 2xx.
    for (let round = 0; ; round++) {
      expect(round, 'the receiver answered within 200 rounds').toBeLessThan(200);
      await deliverDueWebhooks(server.deps);
      const done = await server.deps.db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('endpoint_id', '=', created.body.id)
        .executeTakeFirstOrThrow();
      if (done.status === 'delivered') break;
      await server.deps.db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: new Date(0) })
        .where('endpoint_id', '=', created.body.id)
        .execute();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await printed;
    const events = (await server.request('GET', '/events', { key: recipient.key })).body.events;
    expect(output.trim()).toBe(`transfer.received ${events[0].id} ${JSON.stringify(events[0].data)}`);
  });
});
