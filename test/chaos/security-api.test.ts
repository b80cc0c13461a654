// Security checks as tests, on one pair of peerpay instances over one database (started once, to
// keep the short profile within its budget): another user's resources are never readable or usable
// (BOLA, with the route inventory from /openapi.json and the router), every kind of link token is
// single use, revoked keys fail at once on both instances, and finally nothing any of these checks
// handled (keys, passwords, tokens, card numbers, x402 signatures, the master seed and the private
// keys derived from it) appears in what instance A logged at trace level.
// Timing and rate limits need their own settings: security-timing.test.ts.
import { afterAll, beforeAll } from 'vitest';
import { startWorld, stopWorld } from './support/security-world.js';
import { bolaSuite } from './support/security-bola-suite.js';
import { linkTokensSuite } from './support/security-links-suite.js';
import { revokedKeysSuite } from './support/security-keys-suite.js';
import { logsSuite } from './support/security-logs-suite.js';

beforeAll(startWorld, 180_000);
afterAll(stopWorld);

bolaSuite();
revokedKeysSuite();
// Moves the sandbox clock forward: after the checks that need today's time.
linkTokensSuite();
// Last: searches everything instance A logged during the checks above and its own flow.
logsSuite();
