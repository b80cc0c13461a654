// Types shared by the HTTP layer: the Fastify instance with the TypeBox type provider, and the
// per-route options (`config`) that the global hooks read.
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { OwnerBalance } from '../ledger/ledger-queries.js';
import type { AccountKey, AccountLookup } from '../accounts/account-lookups.js';
import type { Freeze } from '../compliance/freezes/freezes-repository.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  RawReplyDefaultExpression<RawServerDefault>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Who may call a route. Routes are authenticated unless they say otherwise. */
export type AuthMode = 'required' | 'optional' | 'public';

export interface AuthenticatedCaller {
  accountId: number;
  handle: string;
  apiKeyId: number;
  /** Read with the key on routes whose config says `authReadsBalances`: the account's balances at that moment. */
  balances?: OwnerBalance[];
  /**
   * The account's freeze as committed when the key was read (null: none), in the key's statement;
   * absent on routes that read balances with the key.
   */
  freeze?: Freeze | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** The route moves money: it honours Idempotency-Key. */
    idempotent?: boolean;
    /**
     * The route's service claims and answers the Idempotency-Key in the transaction that does the
     * work (decision 0050): the plugin only checks the key and hashes the request.
     */
    idempotencyInTransaction?: boolean;
    /** Authentication also reads the caller's balances, in the same statement. */
    authReadsBalances?: boolean;
    /** The account the request names (a quote's recipient), read in the same statement as the key. */
    accountAlongsideKey?: (request: FastifyRequest) => AccountKey | undefined;
  }
  interface FastifyRequest {
    caller: AuthenticatedCaller | null;
    /** Started by authentication on routes whose config names an account alongside the key. */
    accountLookup: AccountLookup | null;
  }
}
