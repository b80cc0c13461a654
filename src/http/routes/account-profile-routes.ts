// The caller's account: read it, update name, phone, website or directory listing, and the
// stablecoin wallet every account gets at registration.
import type { PaymentMethods } from '../../fiat/processor-customers.js';
import { AppError } from '../../platform/errors.js';
import { callerOf } from '../plugins/auth.js';
import { Profile, ProfilePatch, WalletResponse } from '../schemas/account-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';
import type { Accounts } from '../../accounts/accounts.js';

/** What these routes call: the accounts and the card and bank an account has linked. */
export type AccountProfileServices = { accounts: Accounts; paymentMethods: (accountId: number) => Promise<PaymentMethods> };

export function profileRoutes(app: App, { accounts, paymentMethods }: AccountProfileServices): void {
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
      const account = await accounts.find({ handle: callerOf(request).handle });
      if (!account) throw new AppError('unauthorized', 'The account of this key no longer exists.');
      return profileOf(account, await paymentMethods(callerOf(request).accountId));
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
      return profileOf(await accounts.updateProfile(accountId, request.body ?? {}), await paymentMethods(accountId));
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
      // With WALLET_PROVIDER=circle, for an account whose wallet Circle did not make at registration.
      errors: ['service_unavailable'],
    }),
    async (request) => {
      const wallet = await accounts.ensureWallet(callerOf(request).accountId);
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
