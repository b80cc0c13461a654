// Generated from peerpay's GET /openapi.json by `npm run generate:client` (scripts/client-types.ts). Do not edit.
/* eslint-disable */
/** Every operation of the document by operationId: its method, path, and whether it takes an Idempotency-Key (the calls that move money). */
export const OPERATIONS = {
  advanceSandboxClock: { method: 'POST', path: '/test-helpers/clock/advance', idempotent: false },
  changePassword: { method: 'POST', path: '/account/password', idempotent: false },
  checkAccount: { method: 'GET', path: '/agents/check', idempotent: false },
  createAgentTransfer: { method: 'POST', path: '/agent/transfer', idempotent: true },
  createBankDebitSetupLink: { method: 'POST', path: '/agent/bank-debit-link', idempotent: false },
  createCardSetupLink: { method: 'POST', path: '/agent/setup-link', idempotent: false },
  createFundingLink: { method: 'POST', path: '/stablecoin/buy-session', idempotent: true },
  createPayoutSetupLink: { method: 'POST', path: '/agent/connect-link', idempotent: false },
  createStablecoinTransfer: { method: 'POST', path: '/stablecoin/transfer', idempotent: true },
  createStablecoinWallet: { method: 'POST', path: '/stablecoin/wallet', idempotent: false },
  createTransfer: { method: 'POST', path: '/transfers', idempotent: true },
  createWebhookEndpoint: { method: 'POST', path: '/webhook-endpoints', idempotent: false },
  createWithdrawal: { method: 'POST', path: '/stablecoin/withdraw', idempotent: true },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/webhook-endpoints/{id}', idempotent: false },
  getAccount: { method: 'GET', path: '/account', idempotent: false },
  getAccountLimits: { method: 'GET', path: '/account/limits', idempotent: false },
  getBalance: { method: 'GET', path: '/balance', idempotent: false },
  getDepositAddress: { method: 'GET', path: '/stablecoin/deposit-address', idempotent: false },
  getHealth: { method: 'GET', path: '/health', idempotent: false },
  getLiveness: { method: 'GET', path: '/health/live', idempotent: false },
  getNanoStatus: { method: 'GET', path: '/nano', idempotent: false },
  getReadiness: { method: 'GET', path: '/health/ready', idempotent: false },
  getStablecoinBalance: { method: 'GET', path: '/stablecoin/balance', idempotent: false },
  getWithdrawalAddress: { method: 'GET', path: '/stablecoin/withdrawal-address', idempotent: false },
  getX402Discovery: { method: 'GET', path: '/.well-known/x402', idempotent: false },
  listEvents: { method: 'GET', path: '/events', idempotent: false },
  listStablecoinTransfers: { method: 'GET', path: '/stablecoin/transfers', idempotent: false },
  listTransactions: { method: 'GET', path: '/transactions', idempotent: false },
  listTransfers: { method: 'GET', path: '/transfers', idempotent: false },
  listWebhookDeliveries: { method: 'GET', path: '/webhook-endpoints/{id}/deliveries', idempotent: false },
  listWebhookEndpoints: { method: 'GET', path: '/webhook-endpoints', idempotent: false },
  lookupAgent: { method: 'GET', path: '/agents/lookup', idempotent: false },
  lookupNanoAccount: { method: 'GET', path: '/nano/lookup', idempotent: false },
  lookupStablecoinRecipient: { method: 'GET', path: '/stablecoin/lookup', idempotent: false },
  mintSandboxTokens: { method: 'POST', path: '/test-helpers/stablecoin/faucet', idempotent: false },
  quoteAgentTransfer: { method: 'GET', path: '/agent/transfer/quote', idempotent: false },
  quoteNanoFee: { method: 'GET', path: '/nano/quote', idempotent: false },
  quoteTransfer: { method: 'GET', path: '/transfers/quote', idempotent: false },
  quoteWithdrawal: { method: 'GET', path: '/stablecoin/withdraw/quote', idempotent: false },
  registerAgent: { method: 'POST', path: '/agent/register', idempotent: false },
  registerStablecoinAccount: { method: 'POST', path: '/stablecoin/register', idempotent: false },
  revokeAllApiKeys: { method: 'POST', path: '/account/revoke-all-keys', idempotent: false },
  revokeApiKey: { method: 'POST', path: '/account/revoke-key', idempotent: false },
  searchNanoDirectory: { method: 'GET', path: '/nano/search', idempotent: false },
  setWithdrawalAddress: { method: 'PUT', path: '/stablecoin/withdrawal-address', idempotent: false },
  updateAccount: { method: 'PATCH', path: '/account', idempotent: false },
} as const;

export type OperationId = keyof typeof OPERATIONS;

/** The extension members of the problem document each error code carries: always, or only sometimes (x-members-by-code). */
export const PROBLEM_MEMBERS = {
  "invalid_request": {
    "errors": "sometimes"
  },
  "amount_too_small": {
    "minimum": "always"
  },
  "ach_setup_required": {
    "needsBankDebitSetup": "always",
    "transferId": "sometimes"
  },
  "card_declined": {
    "transferId": "always"
  },
  "card_authentication_required": {
    "transferId": "always"
  },
  "account_in_debt": {
    "owed": "always"
  },
  "limit_exceeded": {
    "limit": "always",
    "window": "always",
    "remaining": "always"
  },
  "payment_required": {
    "price": "always",
    "x402Version": "always",
    "error": "always",
    "accepts": "always"
  },
  "not_ready": {
    "checks": "always"
  }
} as const;
