// The caller's account: read it, update name, phone, website or directory listing, and the
// stablecoin wallet every account gets at registration.
import * as accounts from '../../accounts/accounts-service.js';
import { paymentMethodsOf, type PaymentMethods } from '../../fiat/processor-customers.js';
import { AppError } from '../../platform/errors.js';
import { callerOf } from '../plugins/auth.js';
import { Profile, ProfilePatch, WalletResponse } from '../schemas/account-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Db } from '../../db/database.js';

/** What these routes use: only these, not the whole composition root. */
export type AccountProfileRoutesDeps = { db: Db; wallets: WalletProvider };

export function profileRoutes(app: App, deps: AccountProfileRoutesDeps): void {
  app.get(
    '/account',
    operation({
      operationId: 'getAccount',
      tag: 'account',
      summary: 'The caller’s account',
      auth: 'required',
      responses: { 200: Profile },
      errors: [],
    }),
    async (request) => {
      const account = await accounts.findAccount(deps, { handle: callerOf(request).handle });
      if (!account) throw new AppError('unauthorized', 'The account of this key no longer exists.');
      return profileOf(account, await paymentMethodsOf(deps.db, callerOf(request).accountId));
    },
  );

  app.patch(
    '/account',
    operation({
      operationId: 'updateAccount',
      tag: 'account',
      summary: 'Update name, phone, website or directory listing',
      description: 'Send at least one field. 409 `already_exists` when the phone number belongs to another account.',
      auth: 'required',
      readsBody: true,
      body: ProfilePatch,
      responses: { 200: Profile },
      errors: ['invalid_field', 'already_exists'],
    }),
    async (request) => {
      const { accountId } = callerOf(request);
      return profileOf(await accounts.updateProfile(deps, accountId, request.body ?? {}), await paymentMethodsOf(deps.db, accountId));
    },
  );

  app.post(
    '/stablecoin/wallet',
    operation({
      operationId: 'createStablecoinWallet',
      tag: 'stablecoin',
      summary: 'The caller’s stablecoin wallet (created at registration)',
      auth: 'required',
      readsBody: true,
      responses: { 200: WalletResponse },
      errors: [],
    }),
    async (request) => {
      const wallet = await accounts.ensureWallet(deps, callerOf(request).accountId);
      return { walletId: wallet.walletId, existing: wallet.existing, depositAddress: wallet.address };
    },
  );
}

function profileOf(
  account: {
    handle: string;
    email: string;
    name: string;
    phone: string | null;
    website: string | null;
    discoverable: boolean;
    walletId: string | null;
    depositAddress: string | null;
  },
  paymentMethods: PaymentMethods,
) {
  return {
    agentHandle: account.handle,
    email: account.email,
    name: account.name,
    phone: account.phone,
    website: account.website,
    discoverable: account.discoverable,
    stablecoinWalletId: account.walletId,
    depositAddress: account.depositAddress,
    paymentMethods,
  };
}
