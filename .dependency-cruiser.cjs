// The boundary rule of DESIGN §21, checked by `npm test` (scripts/checks.mjs): imports go one way.
// The folders of src/ in their order, lowest first; a module may import its own folder and the
// folders before it, never one after it, so no two folders can form a cycle. Type-only imports
// count too: a type that has to come from above is a sign that it lives in the wrong place.
const LAYERS = [
  ['money', '^src/money/'],
  ['config', '^src/config(\\.ts$|/)'],
  ['db', '^src/db/'],
  ['platform', '^src/platform/'],
  ['adapters', '^src/adapters/'],
  ['ledger', '^src/ledger/'],
  ['accounts', '^src/accounts/'],
  ['events', '^src/events/'],
  ['links', '^src/links/'],
  ['compliance', '^src/compliance/'],
  ['books', '^src/books/'],
  ['fiat', '^src/fiat/'],
  ['stablecoin', '^src/stablecoin/'],
  ['nano', '^src/nano/'],
  ['health', '^src/health/'],
  ['admin', '^src/admin/'],
  ['operations', '^src/operations/'],
  ['jobs', '^src/jobs/'],
  ['http', '^src/http/'],
  ['console', '^src/console/'],
  ['mcp', '^src/mcp/'],
  ['startup', '^src/startup/'],
  ['composition root', '^src/(deps|app|main)\\.ts$'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], index) => ({
  name: `${name}-imports-upward`,
  comment: `${name} may import only the folders below it: ${
    LAYERS.slice(0, index)
      .map(([below]) => below)
      .join(', ') || 'none'
  }`,
  severity: 'error',
  from: { path },
  to: {
    path: LAYERS.slice(index + 1)
      .map(([, above]) => `(${above})`)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      comment: 'modules that import each other, directly or through others',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-tests',
      comment: 'the service never imports test code',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)node_modules/|^dist/' },
  },
};
