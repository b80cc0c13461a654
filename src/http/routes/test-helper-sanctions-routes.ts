// Sandbox-only: POST /test-helpers/sanctions {address, sanctioned} lists or unlists an address on
// the stand-in sanctions oracle of the embedded chain (DESIGN §17), so that a sandbox user can see
// a refused withdrawal, a blocked deposit and the freeze they lead to. It exists only when screening
// asks the stand-in (sandbox mode on the embedded chain, no SANCTIONS_ORACLE_ADDRESS elsewhere);
// otherwise the path answers 404 like any unknown one.
import { Type } from 'typebox';
import { parsePolygonAddress } from '../../stablecoin/polygon-address.js';
import { AppError } from '../../platform/errors.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';
import type { SandboxSanctions } from '../../compliance/sanctions/sandbox-sanctions.js';

const Body = Type.Object(
  {
    address: Type.String({ maxLength: 100, description: 'A Polygon address, 0x and 40 hex digits' }),
    sanctioned: Type.Boolean({ description: 'true lists it, false unlists it' }),
  },
  { additionalProperties: false },
);

export async function testHelperSanctionsRoutes(app: App, sandboxSanctions: SandboxSanctions | null): Promise<void> {
  if (!sandboxSanctions) return;
  app.post(
    '/test-helpers/sanctions',
    operation({
      operationId: 'setSandboxSanctioned',
      tag: 'sandbox',
      summary: 'List or unlist an address on the sandbox sanctions oracle (sandbox mode only)',
      auth: 'public',
      published: false,
      readsBody: true,
      body: Body,
      responses: { 200: Type.Object({ address: Type.String(), sanctioned: Type.Boolean() }) },
      errors: ['invalid_request', 'invalid_address', 'service_unavailable'],
    }),
    async (request) => {
      const { sanctioned } = request.body;
      const address = parsePolygonAddress(request.body.address);
      try {
        await sandboxSanctions.set(address, sanctioned);
      } catch (error) {
        request.log.warn({ err: error }, 'the sandbox sanctions oracle was not changed');
        throw new AppError(
          'service_unavailable',
          'The sandbox chain did not take the change just now; nothing changed. Retry in a moment.',
        );
      }
      return { address, sanctioned };
    },
  );
}
