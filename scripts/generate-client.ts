// npm run generate:client: regenerates the SDK's types from the OpenAPI document of the service as
// built from these sources (sandbox mode, a scratch DATA_DIR that is removed afterwards).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { buildApp } from '../src/app.js';
import { GENERATED_FILES, generateClientFiles } from './client-types.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-openapi-'));
try {
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', PUBLIC_URL: 'http://127.0.0.1:3000' });
  const deps = await createDeps(config);
  const app = await buildApp(deps);
  const response = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}`);
  const files = await generateClientFiles(response.json());
  fs.writeFileSync(GENERATED_FILES.types, files.types);
  fs.writeFileSync(GENERATED_FILES.operations, files.operations);
  console.log(`wrote ${GENERATED_FILES.types} and ${GENERATED_FILES.operations}`);
  await app.close();
  await deps.close();
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
