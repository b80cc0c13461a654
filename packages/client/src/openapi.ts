// Generated from peerpay's GET /openapi.json by `npm run generate:client` (scripts/client-types.ts). Do not edit.
/* eslint-disable */
export interface paths {
    "/.well-known/x402": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status document of the pay-per-call micro-endpoints, at its well-known address */
        get: operations["getX402Discovery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s account */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update name, phone, website or directory listing
         * @description Send at least one field. 409 `already_exists` when the phone number belongs to another account.
         */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/account/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s limits on what it sends, and what it used
         * @description Per rail and currency or token, over a rolling 24 hours (`day`) and 30 days (`month`): the effective limit (an account younger than 7 days has a tenth of the usual ones), what was sent (transfers with their fees, withdrawals and payouts; failed ones give their volume back) and what remains. A transfer, withdrawal or quote beyond what remains answers 429 `limit_exceeded`. Amounts are decimal strings.
         */
        get: operations["getAccountLimits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the password
         * @description Checks `currentPassword` (a wrong one counts towards the sign-in lock-out: 401 `invalid_credentials`, then 429 `too_many_attempts`) and saves `newPassword` (at least 8 characters). API keys keep working, the calling one and the others, as with Stripe and GitHub: a password change does not revoke keys unless `revokeOtherKeys: true` asks it to (the calling key is never revoked here; use POST /account/revoke-all-keys for that). `revokedKeys` says how many keys were revoked. 503 `busy` with Retry-After when too many password hashes are waiting.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/revoke-all-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke every API key of the account, the calling one included
         * @description For a key that may have leaked without knowing which. Wallets and funds are unaffected; sign in again (POST /agent/register with e-mail and password) for a new key. `revoked` says how many keys were revoked.
         */
        post: operations["revokeAllApiKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/revoke-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke the API key used for this call
         * @description Wallets and funds are unaffected. Register again with e-mail and password for a new key.
         */
        post: operations["revokeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/bank-debit-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link for the user to allow bank debits (24 hours)
         * @description One-time setup required for `ach` transfers. peerpay never sees bank account or routing numbers. 503 `processor_unavailable` when the payment processor does not answer.
         */
        post: operations["createBankDebitSetupLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/connect-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link for the user to connect a payout account (10 minutes)
         * @description Once connected, money the user receives is paid out to it automatically. 503 `processor_unavailable` when the payment processor does not answer.
         */
        post: operations["createPayoutSetupLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register, or obtain a new API key for an existing account
         * @description 201 creates the account, its stablecoin wallet and a key. 200 issues one more key to an existing account whose password matches. E-mail local parts are plain ASCII and domains are compared in their IDNA ASCII form; control, zero-width and bidirectional-override characters are refused (400 `invalid_email`, or `invalid_field` in the name). 401 `invalid_credentials`; 429 `too_many_attempts` once LOGIN_MAX_FAILURES attempts were made in the window (parallel ones count); 503 `busy` with Retry-After when too many password hashes are waiting. With WALLET_PROVIDER=circle, 503 `service_unavailable` when Circle does not make the wallet now: registering again (the same e-mail and password) makes the same wallet.
         */
        post: operations["registerAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/setup-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link for the user to save a card (24 hours)
         * @description Needed before `instant` transfers, and again after a card is declined. peerpay never sees the card number. 503 `processor_unavailable` when the payment processor does not answer.
         */
        post: operations["createCardSetupLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send USDC or EURC to a user by e-mail, handle or phone; the 1.49% fee comes out of the amount
         * @description Moves the caller’s balance at once: the recipient receives amount minus fee. The smallest transfer is 0.01 and every fee is at least 0.000001. Errors: 400 `invalid_request` (malformed input), `invalid_amount` (not > 0, more than 6 decimals), `amount_too_small` (under 0.01; `minimum` names it as a decimal string), `amount_too_large`, `unsupported_currency`, `self_transfer`, `insufficient_balance`; 404 `recipient_not_found`; 422 `idempotency_key_reused`; 429 `limit_exceeded` (over a 24-hour or 30-day limit on what the account sends, fee included; `limit`, `window` and `remaining` say which, Retry-After when it fits again; `GET /account/limits` shows them).
         */
        post: operations["createAgentTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/transfer/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a transfer would cost: fee and what the recipient receives
         * @description Computed by the same rules as the transfer, so the numbers are the transfer’s, and an amount the transfer would refuse (under 0.01: 400 `amount_too_small` with `minimum`) is refused here too. `currency` defaults to USDC. The recipient must exist (404 `recipient_not_found`); the balance is not checked, the limits are (429 `limit_exceeded`, as the transfer would answer). 400 as for the transfer.
         */
        get: operations["quoteAgentTransfer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Does an account exist? Public; works with or without a key
         * @description Give exactly one of `email` or `handle`.
         */
        get: operations["checkAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a recipient by e-mail or handle
         * @description Give exactly one of `email` or `handle`. 404 `recipient_not_found` when no account has it.
         */
        get: operations["lookupAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fiat balances per currency
         * @description Money received and not yet paid out. Every supported currency is listed, zero included.
         */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your events, oldest first, from a cursor
         * @description Everything that happened to your account that you would otherwise poll for: transfers sent, received, completed and failed, deposits credited, withdrawals and payouts ended, links completed, x402 payments from your balance. Each event is written with the change it describes. Pass `nextCursor` as `after` to get what came since (an empty page keeps the same cursor). Kept 30 days.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service health */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: database, chain, custody check and draining
         * @description 503 `not_ready` names every failing check in `detail`, and carries all of them in `checks`. Public: a check says whether it passes and since when it fails, never a figure (amounts, gas balance, block numbers, addresses).
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/nano": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status document of the pay-per-call micro-endpoints */
        get: operations["getNanoStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/nano/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Does a peerpay account exist for this e-mail or handle? Its handle and first name (0.0001 USDC per call)
         * @description Paid per call, 0.0001 USDC (100 base units), with x402: without payment the answer is 402 with the requirements (v1 body, v2 PAYMENT-REQUIRED header); repeat the request with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). A successful paid answer carries X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2): base64 JSON {success, transaction, network, payer}. With an API key, X-Payment-Source: balance pays from the caller’s USDC balance instead. Bad parameters are refused (400) before any payment is asked for. HEAD is never charged: it answers as GET without payment (402), whatever payment it carries.
         */
        get: operations["lookupNanoAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/nano/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a transfer, withdrawal or card/ACH payment of this amount would cost on peerpay (0.0001 USDC per call)
         * @description Paid per call, 0.0001 USDC (100 base units), with x402: without payment the answer is 402 with the requirements (v1 body, v2 PAYMENT-REQUIRED header); repeat the request with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). A successful paid answer carries X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2): base64 JSON {success, transaction, network, payer}. With an API key, X-Payment-Source: balance pays from the caller’s USDC balance instead. Bad parameters are refused (400) before any payment is asked for. HEAD is never charged: it answers as GET without payment (402), whatever payment it carries.
         */
        get: operations["quoteNanoFee"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/nano/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search the public directory of peerpay users who opted in, by name or handle and by website (0.001 USDC per call)
         * @description Paid per call, 0.001 USDC (1000 base units), with x402: without payment the answer is 402 with the requirements (v1 body, v2 PAYMENT-REQUIRED header); repeat the request with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). A successful paid answer carries X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2): base64 JSON {success, transaction, network, payer}. With an API key, X-Payment-Source: balance pays from the caller’s USDC balance instead. Bad parameters are refused (400) before any payment is asked for. HEAD is never charged: it answers as GET without payment (402), whatever payment it carries.
         */
        get: operations["searchNanoDirectory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * USDC and EURC balances
         * @description What the caller can spend now, as exact decimal strings with all 6 decimals (`"100.000000"`), like the fiat GET /balance gives every currency’s decimals. Both tokens are always present, zero included.
         */
        get: operations["getStablecoinBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/buy-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Private link on which the user adds USDC or EURC to their balance (30 minutes, single use)
         * @description The user opens the link to pay; the tokens then arrive at their deposit address and are credited like any deposit. On the embedded sandbox chain the page’s button mints test tokens; on any other chain (live mode) the page shows the deposit address with a QR code, the network, token, amount and expiry, and how to send from an exchange or wallet. Errors: 400 `invalid_amount`, `amount_too_large`, `unsupported_currency`.
         */
        post: operations["createFundingLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/deposit-address": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s Polygon deposit address for USDC and EURC
         * @description Tokens sent to this address on Polygon are credited to the caller’s balance automatically, once the chain has confirmed them. Only USDC and EURC at the token contracts peerpay uses are credited; other tokens sent here are not. Errors: 400 `unsupported_chain` for any chain other than MATIC.
         */
        get: operations["getDepositAddress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a stablecoin recipient by e-mail or handle
         * @description Give exactly one of `email` or `handle`. 404 `recipient_not_found` when no account has it.
         */
        get: operations["lookupStablecoinRecipient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register (stablecoin description of the same registration)
         * @description 201 creates the account, its stablecoin wallet and a key. 200 issues one more key to an existing account whose password matches. E-mail local parts are plain ASCII and domains are compared in their IDNA ASCII form; control, zero-width and bidirectional-override characters are refused (400 `invalid_email`, or `invalid_field` in the name). 401 `invalid_credentials`; 429 `too_many_attempts` once LOGIN_MAX_FAILURES attempts were made in the window (parallel ones count); 503 `busy` with Retry-After when too many password hashes are waiting. With WALLET_PROVIDER=circle, 503 `service_unavailable` when Circle does not make the wallet now: registering again (the same e-mail and password) makes the same wallet.
         */
        post: operations["registerStablecoinAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send USDC or EURC to a user by e-mail; the 1.49% fee comes out of the amount
         * @description The same transfer as POST /agent/transfer, addressed by e-mail. The smallest transfer is 0.01 and every fee is at least 0.000001. Errors: 400 `invalid_request` (malformed input), `invalid_amount` (not > 0, more than 6 decimals), `amount_too_small` (under 0.01; `minimum` names it as a decimal string), `amount_too_large`, `unsupported_currency`, `self_transfer`, `insufficient_balance`; 404 `recipient_not_found`; 422 `idempotency_key_reused`; 429 `limit_exceeded` (over a 24-hour or 30-day limit on what the account sends, fee included; `limit`, `window` and `remaining` say which, Retry-After when it fits again; `GET /account/limits` shows them).
         */
        post: operations["createStablecoinTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stablecoin history, newest first
         * @description Transfers sent and received (`type: "transfer"`) and withdrawals (`type: "withdrawal"`, with `address`, `txHash` and their status). A received transfer shows what reached the caller and never the sender’s fee. Paged with `limit` (1–100, default 20) and `cursor` (`nextCursor` of the previous page).
         */
        get: operations["listStablecoinTransfers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The caller’s stablecoin wallet (created at registration) */
        post: operations["createStablecoinWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw USDC or EURC to a Polygon address; the 1.49% fee comes out of the amount
         * @description Reserves `gross` from the balance and sends `net` = gross − fee on Polygon from peerpay’s hot wallet; `txId` is the transaction hash. A withdrawal you can afford is never refused for peerpay’s reasons: when the hot wallet does not hold the tokens yet (a deposit still being moved to it), it is accepted `pending` with `txId` null and sent as soon as the hot wallet does. `pending` until the transaction has the configured confirmations, then `complete`; a reverted transaction makes it `failed` and refunds gross. Without `address` the saved default is used (PUT /stablecoin/withdrawal-address); the first completed withdrawal’s address becomes the default when none is saved. The smallest withdrawal is 1.00 (its fee pays for the chain transaction). The destination is screened against sanctions lists at the request and again before the transaction is signed: a listed address is refused with 403 `destination_sanctioned`, nothing is sent and the account is frozen; when it cannot be screened now, 503 `screening_unavailable` with Retry-After and nothing moves. Errors: 403 `account_frozen` (the account is frozen; a withdrawal accepted before the freeze and not yet signed fails, refunded, with failureCode `account_frozen`); 400 `invalid_request`, `invalid_amount`, `amount_too_small` (under 1.00; `minimum` names it as a decimal string), `amount_too_large`, `unsupported_currency`, `invalid_address`, `no_default_address`, `insufficient_balance`; 403 `destination_sanctioned`; 422 `idempotency_key_reused`; 429 `limit_exceeded` (over a 24-hour or 30-day limit, the gross counted; Retry-After when it fits again); 503 `withdrawal_unavailable` (the token contract refused the transfer: nothing sent, balance unchanged; retry later), `screening_unavailable`.
         */
        post: operations["createWithdrawal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/withdraw/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a withdrawal would cost: the fee, what arrives, and the address it would go to
         * @description Computed by the same rules as POST /stablecoin/withdraw, and refused as it would be (amount, minimum 1.00, currency, address, no default address, a sanctioned address: 403 `destination_sanctioned`; 503 `screening_unavailable` when the address cannot be screened now; 429 `limit_exceeded` beyond a limit); the balance is not checked and nothing is recorded or frozen. Without `address`, the saved default is named.
         */
        get: operations["quoteWithdrawal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stablecoin/withdrawal-address": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The saved default withdrawal address */
        get: operations["getWithdrawalAddress"];
        /**
         * Save the default address that withdrawals without an address go to
         * @description A Polygon address: 0x and 40 hex digits; mixed case must match its EIP-55 checksum; never the zero address, peerpay’s hot wallet, a token contract or a peerpay deposit address (400 `invalid_address`, as a withdrawal to it would be). A sanctioned address is refused with 403 `destination_sanctioned` and the account is frozen, as a withdrawal to it would be; 503 `screening_unavailable` when it cannot be screened now. Replaces any saved address; answered checksummed.
         */
        put: operations["setWithdrawalAddress"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test-helpers/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the sandbox clock forward (sandbox mode only)
         * @description Moves the service clock forward by whole days, then runs the background jobs at once, so that ACH transfers due by the new time have settled (or been returned) and payouts have been made when this answers. The clock never moves back.
         */
        post: operations["advanceSandboxClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test-helpers/stablecoin/faucet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint test USDC or EURC to any address on the embedded chain (sandbox mode only)
         * @description Sent to a user’s deposit address, the tokens are credited like any deposit once the chain has confirmed them. The answer comes when a node has taken the mint transaction. Errors: 400 `invalid_address`, `invalid_amount`, `amount_too_large` (over 1,000,000), `unsupported_currency`; 503 `funding_unavailable` when the node does not take the mint (nothing was minted; retry).
         */
        post: operations["mintSandboxTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every debit, fee, credit and payout of the caller, newest first */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Transfers sent and received, newest first
         * @description Received transfers appear once they reach the caller (pending or completed, or failed after a returned bank debit) and never show the sender’s fee.
         */
        get: operations["listTransfers"];
        put?: never;
        /**
         * Send money to another user; the sender pays the fee on top
         * @description `instant` charges the saved card and completes at once. `ach` debits the bank account: `pending`, then `completed` after 3 business days (or `failed` if the bank returns the debit). Answers 200. Errors: 400 `amount_too_small` (the total charged, fee included, must reach the card network’s minimum: USD 0.50, EUR 0.50, GBP 0.30, JPY 50; `minimum` names the smallest amount), 402 `card_setup_required` / `card_declined` / `card_authentication_required` (call POST /agent/setup-link and have the user set up the card again), 409 `ach_setup_required` with `needsBankDebitSetup: true` (call POST /agent/bank-debit-link), 429 `limit_exceeded` (over a 24-hour or 30-day limit on what the account sends in that currency, fee included; `limit`, `window` and `remaining` say which, Retry-After when it fits again; `GET /account/limits` shows them), 503 `processor_unavailable` (retry with the same Idempotency-Key; you are charged once).
         */
        post: operations["createTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transfers/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a fiat transfer would cost: the fee on top and the total charged
         * @description Computed by the same rules as POST /transfers, so the numbers are the transfer’s, and terms it would refuse (currency, amount, minimum charge, unknown recipient, yourself, 429 `limit_exceeded` beyond a limit) are refused here too. `paymentMethod` defaults to `instant`. Card and bank debit setup are not checked; nothing is recorded.
         */
        get: operations["quoteTransfer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your webhook endpoints (their secrets are never shown again) */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Receive events by webhook, signed per Standard Webhooks
         * @description Answers 201 with the endpoint and its signing `secret` (shown once). Each event is POSTed as `{type, timestamp, data}` (data: the event, its id included) with the headers webhook-id, webhook-timestamp and webhook-signature (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`); any 2xx within 10 s is success, otherwise it is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; delivery is at least once, in no promised order. An endpoint failing for 5 days is disabled. Errors: 400 `invalid_field` (url or events), 409 `limit_reached` (10 endpoints per account).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook endpoint; deliveries still due to it are cancelled */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every delivery attempt to one of your endpoints, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 9457 problem document, sent as `application/problem+json` for every refusal and failure. Branch on `code`; the members after `code` are extensions present only for the codes that name them. A 402 from the x402 micro-endpoints is also an x402 v1 PaymentRequired body. */
        Problem: {
            /** @description `not_ready`: every readiness check and its result */
            checks?: {
                [key: string]: {
                    detail?: string;
                    /** @enum {string} */
                    status: "pass" | "fail";
                };
            };
            /**
             * @description Stable, snake_case error code: what clients branch on
             * @enum {string}
             */
            code: "invalid_request" | "malformed_json" | "invalid_signature" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "unsupported_chain" | "invalid_address" | "invalid_email" | "invalid_field" | "no_default_address" | "self_transfer" | "insufficient_balance" | "unauthorized" | "invalid_credentials" | "card_setup_required" | "card_declined" | "card_authentication_required" | "card_disputed" | "account_in_debt" | "account_frozen" | "destination_sanctioned" | "operator_forbidden" | "payment_required" | "not_found" | "recipient_not_found" | "ach_setup_required" | "already_exists" | "idempotency_key_in_use" | "idempotency_key_reused" | "link_expired" | "link_used" | "body_too_large" | "unsupported_media_type" | "too_many_attempts" | "rate_limited" | "limit_exceeded" | "limit_reached" | "processor_unavailable" | "funding_unavailable" | "withdrawal_unavailable" | "screening_unavailable" | "service_unavailable" | "busy" | "not_ready" | "internal_error";
            /** @description What went wrong this time, and what to do about it; for people, not to be parsed */
            detail: string;
            /** @description `invalid_request` from schema validation: the refused field or parameter */
            errors?: {
                /** @description What is wrong with this field or parameter */
                detail: string;
                /** @description The request header, lower case, e.g. `idempotency-key` */
                header?: string;
                /** @description The query or path parameter, e.g. `limit` */
                parameter?: string;
                /** @description JSON Pointer (as a URI fragment) into the request body, e.g. `#/paymentMethod` */
                pointer?: string;
            }[];
            /**
             * @description `limit_exceeded`: the limit that would be exceeded, as a decimal string in major units of the currency sent
             * @example 10000.00
             */
            limit?: string;
            /**
             * @description `amount_too_small`: the smallest amount accepted, as a decimal string in major units
             * @example 0.50
             */
            minimum?: string;
            /** @description `ach_setup_required`: always true; call POST /agent/bank-debit-link */
            needsBankDebitSetup?: boolean;
            /**
             * @description `account_in_debt`: what the account owes in this currency, as a decimal string in major units
             * @example 12.50
             */
            owed?: string;
            /**
             * @description `limit_exceeded`: what is left of the limit in that window, as a decimal string; `Retry-After` says when more is
             * @example 250.00
             */
            remaining?: string;
            /** @description The id of this request, also in the X-Request-Id header; quote it when reporting a problem */
            requestId?: string;
            /** @description The HTTP status code of this answer */
            status: number;
            /** @description Short, human-readable summary of the problem type; the same for every occurrence of a code */
            title: string;
            /** @description `card_declined`, `card_authentication_required`, `ach_setup_required` after an attempt: the failed transfer, as recorded */
            transferId?: string;
            /**
             * Format: uri
             * @description URI naming the problem type: https://peerpay.dev/problems/ and the code with hyphens
             */
            type: string;
            /**
             * @description `limit_exceeded`: the limit’s window, a rolling 24 hours (`day`) or 30 days (`month`)
             * @enum {string}
             */
            window?: "day" | "month";
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getX402Discovery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "service": "peerpay",
                     *       "protocol": "x402",
                     *       "version": 1,
                     *       "network": "eip155:137",
                     *       "asset": "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
                     *       "payTo": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "endpoints": {
                     *         "GET /nano/search": {
                     *           "price": "0.001",
                     *           "params": [
                     *             "q",
                     *             "website"
                     *           ]
                     *         },
                     *         "GET /nano/lookup": {
                     *           "price": "0.0001",
                     *           "params": [
                     *             "email",
                     *             "handle"
                     *           ]
                     *         },
                     *         "GET /nano/quote": {
                     *           "price": "0.0001",
                     *           "params": [
                     *             "amount",
                     *             "currency",
                     *             "action"
                     *           ]
                     *         }
                     *       },
                     *       "docs": "https://pay.example.com/docs"
                     *     }
                     */
                    "application/json": {
                        /** @description The USDC token contract */
                        asset: string;
                        /** @description URL of the API reference */
                        docs: string;
                        endpoints: {
                            [key: string]: {
                                params: string[];
                                /** @description USDC, decimal */
                                price: string;
                            };
                        };
                        /** @example eip155:137 */
                        network: string;
                        /** @description peerpay’s receiving address */
                        payTo: string;
                        /** @enum {string} */
                        protocol: "x402";
                        service: string;
                        status: string;
                        /** @enum {number} */
                        version: 1;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentHandle": "PA-7KQ2M9XD",
                     *       "email": "ada@example.com",
                     *       "name": "Ada Lovelace",
                     *       "phone": "+14155550123",
                     *       "website": "https://ada.example.com",
                     *       "discoverable": true,
                     *       "stablecoinWalletId": "wal_3f9a2c7e1b5d8046a9e2c1f7",
                     *       "depositAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "paymentMethods": {
                     *         "card": true,
                     *         "bankDebit": false,
                     *         "payouts": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle: string;
                        depositAddress: string | null;
                        /** @description Listed in the public directory (/nano/search) */
                        discoverable: boolean;
                        email: string;
                        name: string;
                        /** @description What the account has set up, so that a client can offer the setup link before trying */
                        paymentMethods: {
                            /** @description Bank debit is set up: `ach` transfers can be paid */
                            bankDebit: boolean;
                            /** @description A card is saved: `instant` transfers can be paid */
                            card: boolean;
                            /** @description A payout account is ready: received fiat can be paid out */
                            payouts: boolean;
                        };
                        phone: string | null;
                        stablecoinWalletId: string | null;
                        website: string | null;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "website": "https://ada.example.com",
                 *       "discoverable": true
                 *     }
                 */
                "application/json": {
                    /** @description Listed in the public directory (/nano/search) */
                    discoverable?: boolean;
                    /** @description Letters, marks, spaces, apostrophes, hyphens and dots (400 `invalid_field` otherwise) */
                    name?: string;
                    /** @description E.164 phone number; null removes it */
                    phone?: string | null;
                    /** @description http or https URL; null removes it */
                    website?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentHandle": "PA-7KQ2M9XD",
                     *       "email": "ada@example.com",
                     *       "name": "Ada Lovelace",
                     *       "phone": "+14155550123",
                     *       "website": "https://ada.example.com",
                     *       "discoverable": true,
                     *       "stablecoinWalletId": "wal_3f9a2c7e1b5d8046a9e2c1f7",
                     *       "depositAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "paymentMethods": {
                     *         "card": true,
                     *         "bankDebit": false,
                     *         "payouts": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle: string;
                        depositAddress: string | null;
                        /** @description Listed in the public directory (/nano/search) */
                        discoverable: boolean;
                        email: string;
                        name: string;
                        /** @description What the account has set up, so that a client can offer the setup link before trying */
                        paymentMethods: {
                            /** @description Bank debit is set up: `ach` transfers can be paid */
                            bankDebit: boolean;
                            /** @description A card is saved: `instant` transfers can be paid */
                            card: boolean;
                            /** @description A payout account is ready: received fiat can be paid out */
                            payouts: boolean;
                        };
                        phone: string | null;
                        stablecoinWalletId: string | null;
                        website: string | null;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_field`: Invalid characters in a field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_field
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_field";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `already_exists`: Already exists
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: already_exists
                         * @enum {string}
                         */
                        code?: "already_exists";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getAccountLimits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "limits": [
                     *         {
                     *           "rail": "fiat",
                     *           "currency": "USD",
                     *           "window": "day",
                     *           "limit": "10000.00",
                     *           "used": "250.00",
                     *           "remaining": "9750.00"
                     *         },
                     *         {
                     *           "rail": "fiat",
                     *           "currency": "USD",
                     *           "window": "month",
                     *           "limit": "50000.00",
                     *           "used": "1250.00",
                     *           "remaining": "48750.00"
                     *         },
                     *         {
                     *           "rail": "stablecoin",
                     *           "currency": "USDC",
                     *           "window": "day",
                     *           "limit": "10000",
                     *           "used": "12.5",
                     *           "remaining": "9987.5"
                     *         },
                     *         {
                     *           "rail": "stablecoin",
                     *           "currency": "USDC",
                     *           "window": "month",
                     *           "limit": "50000",
                     *           "used": "12.5",
                     *           "remaining": "49987.5"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        limits: {
                            /** @enum {string} */
                            currency: "USD" | "EUR" | "GBP" | "JPY" | "USDC" | "EURC";
                            /** @description The most the account may send in the window, fees included */
                            limit: string;
                            /**
                             * @description The rail the currency or token moves on
                             * @enum {string}
                             */
                            rail: "fiat" | "stablecoin";
                            /** @description What it may still send now */
                            remaining: string;
                            /** @description What it sent in the window (failed movements not counted) */
                            used: string;
                            /**
                             * @description `day`: a rolling 24 hours; `month`: a rolling 30 days
                             * @enum {string}
                             */
                            window: "day" | "month";
                        }[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "currentPassword": "correct horse battery",
                 *       "newPassword": "staple battery horse",
                 *       "revokeOtherKeys": true
                 *     }
                 */
                "application/json": {
                    currentPassword: string;
                    /** @description At least 8 characters */
                    newPassword: string;
                    /** @description Also revoke every other key of the account (default false) */
                    revokeOtherKeys?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "changed": true,
                     *       "revokedKeys": 2
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        changed: true;
                        /** @description How many other keys were revoked */
                        revokedKeys: number;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             *     - `invalid_credentials`: Incorrect e-mail or password
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized, invalid_credentials
                         * @enum {string}
                         */
                        code?: "unauthorized" | "invalid_credentials";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `too_many_attempts`: Too many attempts
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: too_many_attempts, rate_limited
                         * @enum {string}
                         */
                        code?: "too_many_attempts" | "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             *     - `busy`: Too busy
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable, busy
                         * @enum {string}
                         */
                        code?: "service_unavailable" | "busy";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    revokeAllApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "revoked": 3
                     *     }
                     */
                    "application/json": {
                        /** @description How many keys were revoked, the calling one included */
                        revoked: number;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "revoked": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        revoked: true;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createBankDebitSetupLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://pay.example.com/links/card-setup/kJ3v9QhXw2pL7rT5yB8nZc4mF6dS1aGe0uHo2iNk3Qw",
                     *       "expiresIn": "24 hours",
                     *       "expiresAt": "2026-01-06T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description When the link stops working
                         */
                        expiresAt: string;
                        /**
                         * @description Human-readable lifetime
                         * @example 24 hours
                         */
                        expiresIn: string;
                        /** @description Private link to the setup page; give it to the user only. Single use. */
                        url: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `processor_unavailable`: Payment processor unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: processor_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "processor_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createPayoutSetupLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://pay.example.com/links/card-setup/kJ3v9QhXw2pL7rT5yB8nZc4mF6dS1aGe0uHo2iNk3Qw",
                     *       "expiresIn": "24 hours",
                     *       "expiresAt": "2026-01-06T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description When the link stops working
                         */
                        expiresAt: string;
                        /**
                         * @description Human-readable lifetime
                         * @example 24 hours
                         */
                        expiresIn: string;
                        /** @description Private link to the setup page; give it to the user only. Single use. */
                        url: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `processor_unavailable`: Payment processor unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: processor_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "processor_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    registerAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery",
                 *       "name": "Ada Lovelace"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description E-mail address
                     * @example ada@example.com
                     */
                    email: string;
                    /** @description Required for new accounts. Letters, marks, spaces, apostrophes, hyphens and dots (400 `invalid_field` otherwise) */
                    name?: string;
                    /** @description At least 8 characters */
                    password: string;
                    /** @description E.164 phone number, e.g. +14155550123 */
                    phone?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "apiKey": "pa_live_4Vb9T2mQx7KcR1nZ8pLw3YdF6sHj0GtA5uEo9iNk2Ca7fX1b",
                     *       "agentHandle": "PA-7KQ2M9XD",
                     *       "stablecoinWalletId": "wal_3f9a2c7e1b5d8046a9e2c1f7",
                     *       "depositAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "isNewAccount": true
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle: string;
                        /** @description Shown once: store it at once */
                        apiKey: string;
                        /** @description Polygon address for USDC and EURC from outside, EIP-55 checksummed */
                        depositAddress: string;
                        /** @description true (201) when this call created the account */
                        isNewAccount: boolean;
                        stablecoinWalletId: string;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "apiKey": "pa_live_4Vb9T2mQx7KcR1nZ8pLw3YdF6sHj0GtA5uEo9iNk2Ca7fX1b",
                     *       "agentHandle": "PA-7KQ2M9XD",
                     *       "stablecoinWalletId": "wal_3f9a2c7e1b5d8046a9e2c1f7",
                     *       "depositAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "isNewAccount": true
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle: string;
                        /** @description Shown once: store it at once */
                        apiKey: string;
                        /** @description Polygon address for USDC and EURC from outside, EIP-55 checksummed */
                        depositAddress: string;
                        /** @description true (201) when this call created the account */
                        isNewAccount: boolean;
                        stablecoinWalletId: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_email`: Invalid e-mail address
             *     - `invalid_field`: Invalid characters in a field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_email, invalid_field
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_email" | "invalid_field";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `invalid_credentials`: Incorrect e-mail or password
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_credentials
                         * @enum {string}
                         */
                        code?: "invalid_credentials";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `already_exists`: Already exists
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: already_exists
                         * @enum {string}
                         */
                        code?: "already_exists";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `too_many_attempts`: Too many attempts
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: too_many_attempts, rate_limited
                         * @enum {string}
                         */
                        code?: "too_many_attempts" | "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             *     - `busy`: Too busy
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable, busy
                         * @enum {string}
                         */
                        code?: "service_unavailable" | "busy";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createCardSetupLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://pay.example.com/links/card-setup/kJ3v9QhXw2pL7rT5yB8nZc4mF6dS1aGe0uHo2iNk3Qw",
                     *       "expiresIn": "24 hours",
                     *       "expiresAt": "2026-01-06T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description When the link stops working
                         */
                        expiresAt: string;
                        /**
                         * @description Human-readable lifetime
                         * @example 24 hours
                         */
                        expiresIn: string;
                        /** @description Private link to the setup page; give it to the user only. Single use. */
                        url: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `processor_unavailable`: Payment processor unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: processor_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "processor_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createAgentTransfer: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: the first response is replayed
                 * @example 3f1c2d9e-6b7a-4c1e-9f0d-2a8b5e7c4d31
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "PA-7KQ2M9XD",
                 *       "amount": 10,
                 *       "currency": "USDC"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Amount in major units before the fee (10.5 is 10.50 USDC), at most 6 decimals and at most 1,000,000; the 1.49% fee comes out of it.
                     * @example 10
                     */
                    amount: number;
                    /**
                     * @description USDC or EURC (case-insensitive); anything else is 400 unsupported_currency
                     * @example USDC
                     */
                    currency: string;
                    /**
                     * @description The recipient: e-mail address, handle (PA- followed by 8 characters) or E.164 phone number
                     * @example PA-7KQ2M9XD
                     * @example bob@example.com
                     * @example +14155550123
                     */
                    to: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transferId": "sct_4fZk8Q2WnYb7cT1R9xLmP3",
                     *       "status": "complete",
                     *       "amount": 10,
                     *       "fee": 0.149,
                     *       "recipientAmount": 9.851,
                     *       "currency": "USDC",
                     *       "recipientHandle": "PA-7KQ2M9XD",
                     *       "createdAt": "2026-01-05T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description Before fee: what left the sender’s balance, in major units (at most 6 decimals)
                         * @example 10
                         */
                        amount: number;
                        /**
                         * Format: date-time
                         * @description When the transfer was made
                         */
                        createdAt: string;
                        /**
                         * @description USDC (US dollars) or EURC (euros) on Polygon
                         * @enum {string}
                         */
                        currency: "USDC" | "EURC";
                        /**
                         * @description 1.49% of the amount, rounded half-up to 6 decimals, in major units (at most 6 decimals)
                         * @example 0.149
                         */
                        fee: number;
                        /**
                         * @description Amount minus fee: what the recipient received, in major units (at most 6 decimals)
                         * @example 9.851
                         */
                        recipientAmount: number;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        recipientHandle: string;
                        /**
                         * @description Internal transfers complete at once
                         * @enum {string}
                         */
                        status: "complete";
                        /** @example sct_4fZk8Q2WnYb7cT1R9xLmP3 */
                        transferId: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `amount_too_small`: Amount too small
             *     - `unsupported_currency`: Unsupported currency
             *     - `invalid_email`: Invalid e-mail address
             *     - `invalid_field`: Invalid characters in a field
             *     - `self_transfer`: Cannot send to yourself
             *     - `insufficient_balance`: Insufficient balance
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_amount, amount_too_large, amount_too_small, unsupported_currency, invalid_email, invalid_field, self_transfer, insufficient_balance
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "invalid_email" | "invalid_field" | "self_transfer" | "insufficient_balance";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen
                         * @enum {string}
                         */
                        code?: "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `recipient_not_found`: Recipient not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: recipient_not_found
                         * @enum {string}
                         */
                        code?: "recipient_not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `idempotency_key_in_use`: Idempotency key in use
             */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_in_use
                         * @enum {string}
                         */
                        code?: "idempotency_key_in_use";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Idempotency key reused with a different request. Codes:
             *     - `idempotency_key_reused`: Idempotency key reused
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_reused
                         * @enum {string}
                         */
                        code?: "idempotency_key_reused";
                        /** @enum {integer} */
                        status?: 422;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             *     - `limit_exceeded`: Limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited, limit_exceeded
                         * @enum {string}
                         */
                        code?: "rate_limited" | "limit_exceeded";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    quoteAgentTransfer: {
        parameters: {
            query: {
                /**
                 * @description Amount before fee, in major units, e.g. 10 or 10.5 (at most 6 decimals)
                 * @example 10
                 */
                amount: string;
                /**
                 * @description USDC (default) or EURC
                 * @example USDC
                 */
                currency?: string;
                /**
                 * @description The recipient: e-mail address, handle or E.164 phone number (must exist)
                 * @example PA-7KQ2M9XD
                 */
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "amount": 10,
                     *       "fee": 0.149,
                     *       "feeRate": "1.49%",
                     *       "recipientReceives": 9.851,
                     *       "currency": "USDC",
                     *       "recipientHandle": "PA-7KQ2M9XD"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description Before fee, in major units (at most 6 decimals)
                         * @example 10
                         */
                        amount: number;
                        /**
                         * @description USDC (US dollars) or EURC (euros) on Polygon
                         * @enum {string}
                         */
                        currency: "USDC" | "EURC";
                        /**
                         * @description The fee that the transfer would deduct, in major units (at most 6 decimals)
                         * @example 0.149
                         */
                        fee: number;
                        /** @example 1.49% */
                        feeRate: string;
                        /**
                         * @description The recipient’s handle. Absent when `to` is a phone number of an account that is not in the public directory (`discoverable: false`): a quote does not tell whose number it is.
                         * @example PA-7KQ2M9XD
                         */
                        recipientHandle?: string;
                        /**
                         * @description Amount minus fee, in major units (at most 6 decimals)
                         * @example 9.851
                         */
                        recipientReceives: number;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `amount_too_small`: Amount too small
             *     - `unsupported_currency`: Unsupported currency
             *     - `invalid_email`: Invalid e-mail address
             *     - `invalid_field`: Invalid characters in a field
             *     - `self_transfer`: Cannot send to yourself
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_amount, amount_too_large, amount_too_small, unsupported_currency, invalid_email, invalid_field, self_transfer
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "invalid_email" | "invalid_field" | "self_transfer";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen
                         * @enum {string}
                         */
                        code?: "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `recipient_not_found`: Recipient not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: recipient_not_found
                         * @enum {string}
                         */
                        code?: "recipient_not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             *     - `limit_exceeded`: Limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited, limit_exceeded
                         * @enum {string}
                         */
                        code?: "rate_limited" | "limit_exceeded";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    checkAccount: {
        parameters: {
            query?: {
                /**
                 * @description E-mail address; give this or handle
                 * @example ada@example.com
                 */
                email?: string;
                /**
                 * @description Handle, PA- followed by 8 characters; give this or email
                 * @example PA-7KQ2M9XD
                 */
                handle?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found: both shapes of the contract merged. Not found: {exists: false, found: false}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle?: string;
                        /** @description Only when the query was by email */
                        email?: string;
                        exists: boolean;
                        firstName?: string;
                        found: boolean;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        handle?: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_email`: Invalid e-mail address
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_email
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_email";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    lookupAgent: {
        parameters: {
            query?: {
                /**
                 * @description E-mail address; give this or handle
                 * @example ada@example.com
                 */
                email?: string;
                /**
                 * @description Handle, PA- followed by 8 characters; give this or email
                 * @example PA-7KQ2M9XD
                 */
                handle?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "found": true,
                     *       "handle": "PA-7KQ2M9XD",
                     *       "agentHandle": "PA-7KQ2M9XD",
                     *       "firstName": "Ada"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle: string;
                        firstName: string;
                        /** @enum {boolean} */
                        found: true;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        handle: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_email`: Invalid e-mail address
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_email
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_email";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `recipient_not_found`: Recipient not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: recipient_not_found
                         * @enum {string}
                         */
                        code?: "recipient_not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "balances": [
                     *         {
                     *           "currency": "USD",
                     *           "available": "10.00",
                     *           "pending": "25.00",
                     *           "held": "5.00",
                     *           "owed": "0.00"
                     *         },
                     *         {
                     *           "currency": "EUR",
                     *           "available": "0.00",
                     *           "pending": "0.00",
                     *           "held": "0.00",
                     *           "owed": "0.00"
                     *         },
                     *         {
                     *           "currency": "GBP",
                     *           "available": "0.00",
                     *           "pending": "0.00",
                     *           "held": "0.00",
                     *           "owed": "0.00"
                     *         },
                     *         {
                     *           "currency": "JPY",
                     *           "available": "0",
                     *           "pending": "0",
                     *           "held": "0",
                     *           "owed": "0"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description One entry per supported currency, zero included */
                        balances: {
                            /**
                             * @description Received and settled, less payouts under way; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            available: string;
                            /**
                             * @description ISO 4217 code: USD, EUR, GBP, JPY
                             * @enum {string}
                             */
                            currency: "USD" | "EUR" | "GBP" | "JPY";
                            /**
                             * @description Received by card, held until its hold ends (FIAT_HOLD_HOURS); not spendable yet; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            held: string;
                            /**
                             * @description Owed to the service after a refund or dispute took back more than was held; repaid first from later receipts. While above zero, sending and payouts in this currency answer 403 account_in_debt; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            owed: string;
                            /**
                             * @description Received by bank debit, not settled yet; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            pending: string;
                        }[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /**
                 * @description An event id (nextCursor of the previous page): the events after it; omitted, from the oldest kept
                 * @example evt_4fZk8Q2WnYb7cT1R9xLmP3
                 */
                after?: string;
                /**
                 * @description page size, a whole number from 1 to 100; default 20
                 * @example 20
                 */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "events": [
                     *         {
                     *           "id": "evt_4fZk8Q2WnYb7cT1R9xLmP3",
                     *           "type": "transfer.received",
                     *           "createdAt": "2026-01-05T10:00:00.000Z",
                     *           "data": {
                     *             "id": "tr_4fZk8Q2WnYb7cT1R9xLmP3",
                     *             "direction": "received",
                     *             "amount": "10.00",
                     *             "currency": "USD",
                     *             "status": "completed",
                     *             "paymentMethod": "instant",
                     *             "counterpartyHandle": "PA-7KQ2M9XD",
                     *             "senderHandle": "PA-7KQ2M9XD",
                     *             "recipientHandle": "PA-3HT8W2ZP",
                     *             "note": "Lunch",
                     *             "createdAt": "2026-01-05T10:00:00.000Z",
                     *             "completedAt": "2026-01-05T10:00:00.000Z"
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": "evt_4fZk8Q2WnYb7cT1R9xLmP3"
                     *     }
                     */
                    "application/json": {
                        /** @description Oldest first; kept 30 days */
                        events: {
                            /**
                             * Format: date-time
                             * @description When the change happened (in the same transaction)
                             */
                            createdAt: string;
                            /** @description The resource as the API shows it to this account */
                            data: {
                                [key: string]: unknown;
                            };
                            /**
                             * @description evt_ and 22 characters; also the webhook-id header of its webhooks
                             * @example evt_4fZk8Q2WnYb7cT1R9xLmP3
                             */
                            id: string;
                            /**
                             * @description The event type
                             * @example transfer.received
                             * @enum {string}
                             */
                            type: "transfer.sent" | "transfer.received" | "transfer.completed" | "transfer.failed" | "deposit.credited" | "withdrawal.completed" | "withdrawal.failed" | "payout.paid" | "payout.failed" | "link.completed" | "x402.payment.settled" | "funds.released" | "transfer.refunded" | "transfer.disputed" | "dispute.closed" | "account.frozen" | "account.unfrozen";
                        }[];
                        /** @description Pass as `after` for the next events (the last event id, or `after` again when there are none yet); null when you have no events */
                        nextCursor: string | null;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "mode": "sandbox",
                     *       "database": "pglite",
                     *       "time": "2026-01-05T10:00:00.000Z",
                     *       "chain": {
                     *         "id": 137,
                     *         "rpcUrl": "http://127.0.0.1:39127",
                     *         "tokens": {
                     *           "USDC": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
                     *           "EURC": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description Sandbox mode only: the embedded chain, for clients and tests to read directly */
                        chain?: {
                            /** @description Chain id (137, Polygon) */
                            id: number;
                            /** @description JSON-RPC URL of the embedded chain */
                            rpcUrl: string;
                            tokens: {
                                EURC: string;
                                USDC: string;
                            };
                        };
                        /** @enum {string} */
                        database: "postgres" | "pglite";
                        /** @enum {string} */
                        mode: "sandbox" | "live";
                        /** @enum {string} */
                        status: "ok";
                        /**
                         * Format: date-time
                         * @description The service clock (moved by test helpers in sandbox mode)
                         */
                        time: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "live"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "live";
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "database": {
                     *           "status": "pass"
                     *         },
                     *         "chain": {
                     *           "status": "pass"
                     *         },
                     *         "custody": {
                     *           "status": "pass"
                     *         },
                     *         "gas": {
                     *           "status": "pass"
                     *         },
                     *         "draining": {
                     *           "status": "pass"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description database: a query answers; chain: the node answers eth_blockNumber within 2 s; custody: the books-against-custody check is not failing; gas: the hot wallet holds at least HOT_WALLET_MIN_GAS_WEI of gas; draining: the process is not about to stop */
                        checks: {
                            chain: {
                                detail?: string;
                                /** @enum {string} */
                                status: "pass" | "fail";
                            };
                            custody: {
                                detail?: string;
                                /** @enum {string} */
                                status: "pass" | "fail";
                            };
                            database: {
                                detail?: string;
                                /** @enum {string} */
                                status: "pass" | "fail";
                            };
                            draining: {
                                detail?: string;
                                /** @enum {string} */
                                status: "pass" | "fail";
                            };
                            gas: {
                                detail?: string;
                                /** @enum {string} */
                                status: "pass" | "fail";
                            };
                        };
                        /** @enum {string} */
                        status: "ready";
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             *     - `not_ready`: Not ready
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable, not_ready
                         * @enum {string}
                         */
                        code?: "service_unavailable" | "not_ready";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getNanoStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "service": "peerpay",
                     *       "protocol": "x402",
                     *       "version": 1,
                     *       "network": "eip155:137",
                     *       "asset": "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
                     *       "payTo": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "endpoints": {
                     *         "GET /nano/search": {
                     *           "price": "0.001",
                     *           "params": [
                     *             "q",
                     *             "website"
                     *           ]
                     *         },
                     *         "GET /nano/lookup": {
                     *           "price": "0.0001",
                     *           "params": [
                     *             "email",
                     *             "handle"
                     *           ]
                     *         },
                     *         "GET /nano/quote": {
                     *           "price": "0.0001",
                     *           "params": [
                     *             "amount",
                     *             "currency",
                     *             "action"
                     *           ]
                     *         }
                     *       },
                     *       "docs": "https://pay.example.com/docs"
                     *     }
                     */
                    "application/json": {
                        /** @description The USDC token contract */
                        asset: string;
                        /** @description URL of the API reference */
                        docs: string;
                        endpoints: {
                            [key: string]: {
                                params: string[];
                                /** @description USDC, decimal */
                                price: string;
                            };
                        };
                        /** @example eip155:137 */
                        network: string;
                        /** @description peerpay’s receiving address */
                        payTo: string;
                        /** @enum {string} */
                        protocol: "x402";
                        service: string;
                        status: string;
                        /** @enum {number} */
                        version: 1;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    lookupNanoAccount: {
        parameters: {
            query?: {
                /**
                 * @description E-mail address; give this or handle
                 * @example ada@example.com
                 */
                email?: string;
                /**
                 * @description Handle, PA- followed by 8 characters; give this or email
                 * @example PA-7KQ2M9XD
                 */
                handle?: string;
            };
            header?: {
                /**
                 * @description x402 v2 payment: base64 JSON PaymentPayload (exact scheme, network eip155:137)
                 * @example eyJ4NDAyVmVyc2lvbiI6MiwicGF5bG9hZCI6eyJzaWduYXR1cmUiOiIweOKApiIsImF1dGhvcml6YXRpb24iOnt9fX0=
                 */
                "payment-signature"?: string;
                /**
                 * @description x402 v1 payment: base64 JSON PaymentPayload (exact scheme, network polygon)
                 * @example eyJ4NDAyVmVyc2lvbiI6MSwic2NoZW1lIjoiZXhhY3QiLCJuZXR3b3JrIjoicG9seWdvbiIsInBheWxvYWQiOnsic2lnbmF0dXJlIjoiMHjigKYiLCJhdXRob3JpemF0aW9uIjp7fX19
                 */
                "x-payment"?: string;
                /**
                 * @description With an API key instead of a payment: charge the caller’s own USDC balance
                 * @example balance
                 */
                "x-payment-source"?: "balance";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found: {found: true, handle, agentHandle, firstName}. Not found: {found: false} (a paid answer, not a 404). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle?: string;
                        firstName?: string;
                        found: boolean;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        handle?: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_email`: Invalid e-mail address
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_email
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_email";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Payment required. Codes:
             *     - `payment_required`: Payment required
             */
            402: {
                headers: {
                    /** @description The x402 v2 PaymentRequired, base64 JSON (network eip155:137, amount) */
                    "PAYMENT-REQUIRED"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        accepts: {
                            asset: string;
                            description: string;
                            extra: {
                                name: string;
                                version: string;
                            };
                            /** @description Atomic units of the asset (6 decimals for USDC) */
                            maxAmountRequired: string;
                            maxTimeoutSeconds: number;
                            mimeType: string;
                            /** @example polygon */
                            network: string;
                            outputSchema?: {
                                [key: string]: unknown;
                            };
                            payTo: string;
                            resource: string;
                            /** @enum {string} */
                            scheme: "exact";
                        }[];
                        /** @description Why payment is required: a reason string of the x402 specification when a payment was refused */
                        error: string;
                        /**
                         * @description The price of this call in USDC, a decimal string as GET /nano states it (the x402 members count base units)
                         * @example 0.0001
                         */
                        price: string;
                        /** @enum {number} */
                        x402Version: 1;
                    } & {
                        /**
                         * @description At this status: payment_required
                         * @enum {string}
                         */
                        code?: "payment_required";
                        /** @enum {integer} */
                        status?: 402;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen
                         * @enum {string}
                         */
                        code?: "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    quoteNanoFee: {
        parameters: {
            query?: {
                /**
                 * @description One of transfer, withdraw, instant, ach; default transfer
                 * @example transfer
                 */
                action?: string;
                /**
                 * @description Decimal amount in major units; required
                 * @example 10
                 */
                amount?: string;
                /**
                 * @description USDC or EURC (transfer, withdraw; default USDC); USD, EUR, GBP or JPY (instant, ach; default USD)
                 * @example USDC
                 */
                currency?: string;
            };
            header?: {
                /**
                 * @description x402 v2 payment: base64 JSON PaymentPayload (exact scheme, network eip155:137)
                 * @example eyJ4NDAyVmVyc2lvbiI6MiwicGF5bG9hZCI6eyJzaWduYXR1cmUiOiIweOKApiIsImF1dGhvcml6YXRpb24iOnt9fX0=
                 */
                "payment-signature"?: string;
                /**
                 * @description x402 v1 payment: base64 JSON PaymentPayload (exact scheme, network polygon)
                 * @example eyJ4NDAyVmVyc2lvbiI6MSwic2NoZW1lIjoiZXhhY3QiLCJuZXR3b3JrIjoicG9seWdvbiIsInBheWxvYWQiOnsic2lnbmF0dXJlIjoiMHjigKYiLCJhdXRob3JpemF0aW9uIjp7fX19
                 */
                "x-payment"?: string;
                /**
                 * @description With an API key instead of a payment: charge the caller’s own USDC balance
                 * @example balance
                 */
                "x-payment-source"?: "balance";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        action: "transfer" | "withdraw";
                        amount: number;
                        currency: string;
                        fee: number;
                        feeRate: string;
                        recipientReceives: number;
                    } | {
                        /** @enum {string} */
                        action: "instant" | "ach";
                        amount: string;
                        currency: string;
                        fee: string;
                        feeRate: string;
                        recipientReceives: string;
                        totalDeducted: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `unsupported_currency`: Unsupported currency
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_amount, amount_too_large, unsupported_currency
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_amount" | "amount_too_large" | "unsupported_currency";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Payment required. Codes:
             *     - `payment_required`: Payment required
             */
            402: {
                headers: {
                    /** @description The x402 v2 PaymentRequired, base64 JSON (network eip155:137, amount) */
                    "PAYMENT-REQUIRED"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        accepts: {
                            asset: string;
                            description: string;
                            extra: {
                                name: string;
                                version: string;
                            };
                            /** @description Atomic units of the asset (6 decimals for USDC) */
                            maxAmountRequired: string;
                            maxTimeoutSeconds: number;
                            mimeType: string;
                            /** @example polygon */
                            network: string;
                            outputSchema?: {
                                [key: string]: unknown;
                            };
                            payTo: string;
                            resource: string;
                            /** @enum {string} */
                            scheme: "exact";
                        }[];
                        /** @description Why payment is required: a reason string of the x402 specification when a payment was refused */
                        error: string;
                        /**
                         * @description The price of this call in USDC, a decimal string as GET /nano states it (the x402 members count base units)
                         * @example 0.0001
                         */
                        price: string;
                        /** @enum {number} */
                        x402Version: 1;
                    } & {
                        /**
                         * @description At this status: payment_required
                         * @enum {string}
                         */
                        code?: "payment_required";
                        /** @enum {integer} */
                        status?: 402;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen
                         * @enum {string}
                         */
                        code?: "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    searchNanoDirectory: {
        parameters: {
            query?: {
                /**
                 * @description Text to find in names and handles (case-insensitive)
                 * @example ada
                 */
                q?: string;
                /**
                 * @description A site or host; matches users whose website is on that host
                 * @example ada.example.com
                 */
                website?: string;
            };
            header?: {
                /**
                 * @description x402 v2 payment: base64 JSON PaymentPayload (exact scheme, network eip155:137)
                 * @example eyJ4NDAyVmVyc2lvbiI6MiwicGF5bG9hZCI6eyJzaWduYXR1cmUiOiIweOKApiIsImF1dGhvcml6YXRpb24iOnt9fX0=
                 */
                "payment-signature"?: string;
                /**
                 * @description x402 v1 payment: base64 JSON PaymentPayload (exact scheme, network polygon)
                 * @example eyJ4NDAyVmVyc2lvbiI6MSwic2NoZW1lIjoiZXhhY3QiLCJuZXR3b3JrIjoicG9seWdvbiIsInBheWxvYWQiOnsic2lnbmF0dXJlIjoiMHjigKYiLCJhdXRob3JpemF0aW9uIjp7fX19
                 */
                "x-payment"?: string;
                /**
                 * @description With an API key instead of a payment: charge the caller’s own USDC balance
                 * @example balance
                 */
                "x-payment-source"?: "balance";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "results": [
                     *         {
                     *           "handle": "PA-7KQ2M9XD",
                     *           "name": "Ada Lovelace",
                     *           "website": "https://ada.example.com"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description At most 20 users who opted in to the directory, by name */
                        results: {
                            /**
                             * @description PA- followed by 8 characters
                             * @example PA-7KQ2M9XD
                             */
                            handle: string;
                            name: string;
                            website: string | null;
                        }[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Payment required. Codes:
             *     - `payment_required`: Payment required
             */
            402: {
                headers: {
                    /** @description The x402 v2 PaymentRequired, base64 JSON (network eip155:137, amount) */
                    "PAYMENT-REQUIRED"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        accepts: {
                            asset: string;
                            description: string;
                            extra: {
                                name: string;
                                version: string;
                            };
                            /** @description Atomic units of the asset (6 decimals for USDC) */
                            maxAmountRequired: string;
                            maxTimeoutSeconds: number;
                            mimeType: string;
                            /** @example polygon */
                            network: string;
                            outputSchema?: {
                                [key: string]: unknown;
                            };
                            payTo: string;
                            resource: string;
                            /** @enum {string} */
                            scheme: "exact";
                        }[];
                        /** @description Why payment is required: a reason string of the x402 specification when a payment was refused */
                        error: string;
                        /**
                         * @description The price of this call in USDC, a decimal string as GET /nano states it (the x402 members count base units)
                         * @example 0.0001
                         */
                        price: string;
                        /** @enum {number} */
                        x402Version: 1;
                    } & {
                        /**
                         * @description At this status: payment_required
                         * @enum {string}
                         */
                        code?: "payment_required";
                        /** @enum {integer} */
                        status?: 402;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen
                         * @enum {string}
                         */
                        code?: "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getStablecoinBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "USDC": "100.000000",
                     *       "EURC": "0.000000"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description Spendable EURC; exact decimal string with all 6 decimals of the token
                         * @example 100.000000
                         */
                        EURC: string;
                        /**
                         * @description Spendable USDC; exact decimal string with all 6 decimals of the token
                         * @example 100.000000
                         */
                        USDC: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createFundingLink: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: the first response is replayed
                 * @example 3f1c2d9e-6b7a-4c1e-9f0d-2a8b5e7c4d31
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 100,
                 *       "currency": "USDC"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Amount in major units (25.5 is 25.50), greater than 0, at most 6 decimals and at most 1,000,000
                     * @example 100
                     */
                    amount: number;
                    /**
                     * @description USDC or EURC (case-insensitive); anything else is 400 unsupported_currency
                     * @example USDC
                     */
                    currency: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://pay.example.com/links/funding/kJ3v9QhXw2pL7rT5yB8nZc4mF6dS1aGe0uHo2iNk3Qw",
                     *       "amount": 100,
                     *       "currency": "USDC",
                     *       "expiresAt": "2026-01-05T10:30:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description The amount the link adds, in major units
                         * @example 100
                         */
                        amount: number;
                        /** @enum {string} */
                        currency: "USDC" | "EURC";
                        /**
                         * Format: date-time
                         * @description 30 minutes after creation
                         */
                        expiresAt: string;
                        /** @description Private link for the user; it works once. Not to be shared or logged. */
                        url: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `unsupported_currency`: Unsupported currency
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_amount, amount_too_large, unsupported_currency
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_amount" | "amount_too_large" | "unsupported_currency";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `idempotency_key_in_use`: Idempotency key in use
             */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_in_use
                         * @enum {string}
                         */
                        code?: "idempotency_key_in_use";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Idempotency key reused with a different request. Codes:
             *     - `idempotency_key_reused`: Idempotency key reused
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_reused
                         * @enum {string}
                         */
                        code?: "idempotency_key_reused";
                        /** @enum {integer} */
                        status?: 422;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getDepositAddress: {
        parameters: {
            query?: {
                /**
                 * @description MATIC (Polygon), the only chain peerpay receives on; POLYGON is accepted too and an absent value means MATIC. Any other value is 400 unsupported_chain.
                 * @example MATIC
                 */
                chain?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "address": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "chain": "MATIC",
                     *       "network": "polygon",
                     *       "tokens": [
                     *         "USDC",
                     *         "EURC"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description The caller’s Polygon deposit address, EIP-55 checksummed
                         * @example 0x52908400098527886E0F7030069857D2E4169EE7
                         */
                        address: string;
                        /** @enum {string} */
                        chain: "MATIC";
                        /** @enum {string} */
                        network: "polygon";
                        /** @description Tokens credited when they arrive at the address */
                        tokens: ("USDC" | "EURC")[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `unsupported_chain`: Unsupported chain
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, unsupported_chain
                         * @enum {string}
                         */
                        code?: "invalid_request" | "unsupported_chain";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    lookupStablecoinRecipient: {
        parameters: {
            query?: {
                /**
                 * @description E-mail address; give this or handle
                 * @example ada@example.com
                 */
                email?: string;
                /**
                 * @description Handle, PA- followed by 8 characters; give this or email
                 * @example PA-7KQ2M9XD
                 */
                handle?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "found": true,
                     *       "handle": "PA-7KQ2M9XD",
                     *       "agentHandle": "PA-7KQ2M9XD",
                     *       "firstName": "Ada"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        agentHandle: string;
                        firstName: string;
                        /** @enum {boolean} */
                        found: true;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        handle: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_email`: Invalid e-mail address
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_email
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_email";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `recipient_not_found`: Recipient not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: recipient_not_found
                         * @enum {string}
                         */
                        code?: "recipient_not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    registerStablecoinAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery",
                 *       "name": "Ada Lovelace"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description E-mail address
                     * @example ada@example.com
                     */
                    email: string;
                    /** @description Required for new accounts. Letters, marks, spaces, apostrophes, hyphens and dots (400 `invalid_field` otherwise) */
                    name?: string;
                    /** @description At least 8 characters */
                    password: string;
                    /** @description E.164 phone number, e.g. +14155550123 */
                    phone?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "apiKey": "pa_live_4Vb9T2mQx7KcR1nZ8pLw3YdF6sHj0GtA5uEo9iNk2Ca7fX1b",
                     *       "stablecoinWalletId": "wal_3f9a2c7e1b5d8046a9e2c1f7",
                     *       "handle": "PA-7KQ2M9XD",
                     *       "email": "ada@example.com",
                     *       "depositAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "isNewAccount": true
                     *     }
                     */
                    "application/json": {
                        /** @description Shown once: store it at once */
                        apiKey: string;
                        /** @description Polygon address for USDC and EURC from outside, EIP-55 checksummed */
                        depositAddress: string;
                        email: string;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        handle: string;
                        /** @description true (201) when this call created the account */
                        isNewAccount: boolean;
                        stablecoinWalletId: string;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "apiKey": "pa_live_4Vb9T2mQx7KcR1nZ8pLw3YdF6sHj0GtA5uEo9iNk2Ca7fX1b",
                     *       "stablecoinWalletId": "wal_3f9a2c7e1b5d8046a9e2c1f7",
                     *       "handle": "PA-7KQ2M9XD",
                     *       "email": "ada@example.com",
                     *       "depositAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "isNewAccount": true
                     *     }
                     */
                    "application/json": {
                        /** @description Shown once: store it at once */
                        apiKey: string;
                        /** @description Polygon address for USDC and EURC from outside, EIP-55 checksummed */
                        depositAddress: string;
                        email: string;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        handle: string;
                        /** @description true (201) when this call created the account */
                        isNewAccount: boolean;
                        stablecoinWalletId: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_email`: Invalid e-mail address
             *     - `invalid_field`: Invalid characters in a field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_email, invalid_field
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_email" | "invalid_field";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `invalid_credentials`: Incorrect e-mail or password
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_credentials
                         * @enum {string}
                         */
                        code?: "invalid_credentials";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `already_exists`: Already exists
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: already_exists
                         * @enum {string}
                         */
                        code?: "already_exists";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `too_many_attempts`: Too many attempts
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: too_many_attempts, rate_limited
                         * @enum {string}
                         */
                        code?: "too_many_attempts" | "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             *     - `busy`: Too busy
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable, busy
                         * @enum {string}
                         */
                        code?: "service_unavailable" | "busy";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createStablecoinTransfer: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: the first response is replayed
                 * @example 3f1c2d9e-6b7a-4c1e-9f0d-2a8b5e7c4d31
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "recipientEmail": "bob@example.com",
                 *       "amount": 10,
                 *       "currency": "USDC"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Amount in major units before the fee (10.5 is 10.50 USDC), at most 6 decimals and at most 1,000,000; the 1.49% fee comes out of it.
                     * @example 10
                     */
                    amount: number;
                    /**
                     * @description USDC or EURC (case-insensitive); anything else is 400 unsupported_currency
                     * @example USDC
                     */
                    currency: string;
                    /**
                     * @description The recipient’s e-mail address
                     * @example bob@example.com
                     */
                    recipientEmail: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transferId": "sct_4fZk8Q2WnYb7cT1R9xLmP3",
                     *       "status": "complete",
                     *       "amount": 10,
                     *       "fee": 0.149,
                     *       "recipientAmount": 9.851,
                     *       "currency": "USDC",
                     *       "recipientHandle": "PA-7KQ2M9XD",
                     *       "createdAt": "2026-01-05T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description Before fee: what left the sender’s balance, in major units (at most 6 decimals)
                         * @example 10
                         */
                        amount: number;
                        /**
                         * Format: date-time
                         * @description When the transfer was made
                         */
                        createdAt: string;
                        /**
                         * @description USDC (US dollars) or EURC (euros) on Polygon
                         * @enum {string}
                         */
                        currency: "USDC" | "EURC";
                        /**
                         * @description 1.49% of the amount, rounded half-up to 6 decimals, in major units (at most 6 decimals)
                         * @example 0.149
                         */
                        fee: number;
                        /**
                         * @description Amount minus fee: what the recipient received, in major units (at most 6 decimals)
                         * @example 9.851
                         */
                        recipientAmount: number;
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        recipientHandle: string;
                        /**
                         * @description Internal transfers complete at once
                         * @enum {string}
                         */
                        status: "complete";
                        /** @example sct_4fZk8Q2WnYb7cT1R9xLmP3 */
                        transferId: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `amount_too_small`: Amount too small
             *     - `unsupported_currency`: Unsupported currency
             *     - `invalid_email`: Invalid e-mail address
             *     - `self_transfer`: Cannot send to yourself
             *     - `insufficient_balance`: Insufficient balance
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_amount, amount_too_large, amount_too_small, unsupported_currency, invalid_email, self_transfer, insufficient_balance
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "invalid_email" | "self_transfer" | "insufficient_balance";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen
                         * @enum {string}
                         */
                        code?: "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `recipient_not_found`: Recipient not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: recipient_not_found
                         * @enum {string}
                         */
                        code?: "recipient_not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `idempotency_key_in_use`: Idempotency key in use
             */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_in_use
                         * @enum {string}
                         */
                        code?: "idempotency_key_in_use";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Idempotency key reused with a different request. Codes:
             *     - `idempotency_key_reused`: Idempotency key reused
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_reused
                         * @enum {string}
                         */
                        code?: "idempotency_key_reused";
                        /** @enum {integer} */
                        status?: 422;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             *     - `limit_exceeded`: Limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited, limit_exceeded
                         * @enum {string}
                         */
                        code?: "rate_limited" | "limit_exceeded";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    listStablecoinTransfers: {
        parameters: {
            query?: {
                /**
                 * @description `nextCursor` of the previous page
                 * @example WyIyMDI2LTAxLTA1VDEwOjAwOjAwLjAwMFoiLCJ0cl80ZlprOFEyV25ZYjdjVDFSOXhMbVAzIl0
                 */
                cursor?: string;
                /**
                 * @description page size, a whole number from 1 to 100; default 20
                 * @example 20
                 */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transfers": [
                     *         {
                     *           "id": "wd_4fZk8Q2WnYb7cT1R9xLmP3",
                     *           "type": "withdrawal",
                     *           "direction": "sent",
                     *           "amount": 5,
                     *           "fee": 0.0745,
                     *           "recipientAmount": 4.9255,
                     *           "currency": "USDC",
                     *           "status": "complete",
                     *           "address": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *           "txHash": "0x9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c1b3d5f7e9a1c3b5d7f9e1a3c5b7d9f1e",
                     *           "counterpartyHandle": null,
                     *           "createdAt": "2026-01-05T10:00:00.000Z"
                     *         },
                     *         {
                     *           "id": "sct_8Hn2Lq5RtVb3Xc7Zp1Mk9W",
                     *           "type": "transfer",
                     *           "direction": "received",
                     *           "amount": 9.851,
                     *           "currency": "USDC",
                     *           "status": "complete",
                     *           "counterpartyHandle": "PA-7KQ2M9XD",
                     *           "createdAt": "2026-01-04T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": {
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        transfers: {
                            /** @description Withdrawals: the address sent to. Deposits: the address the tokens came from (the zero address for tokens minted to you, e.g. by a funding link) */
                            address?: string;
                            /**
                             * @description Sent: before fee (what left your balance). Received: what reached your balance (a blocked deposit: what arrived), in major units (at most 6 decimals)
                             * @example 10
                             */
                            amount: number;
                            /** @description The other user; null for movements to or from the chain */
                            counterpartyHandle: string | null;
                            /**
                             * Format: date-time
                             * @description When it was made
                             */
                            createdAt: string;
                            /**
                             * @description USDC (US dollars) or EURC (euros) on Polygon
                             * @enum {string}
                             */
                            currency: "USDC" | "EURC";
                            /** @enum {string} */
                            direction: "sent" | "received";
                            /**
                             * @description Sent only: the fee you paid, in major units (at most 6 decimals)
                             * @example 0.149
                             */
                            fee?: number;
                            id: string;
                            /**
                             * @description Sent only: what the recipient received, in major units (at most 6 decimals)
                             * @example 9.851
                             */
                            recipientAmount?: number;
                            /**
                             * @description Transfers: `complete`. Withdrawals: `pending` until confirmed on chain, then `complete`; `failed` refunded the amount. Deposits: `complete` (listed once credited, after the confirmations); `blocked` when the sender is on a sanctions list: not in your balance, the account is frozen, and peerpay support decides (a released deposit becomes `complete`).
                             * @enum {string}
                             */
                            status: "complete" | "pending" | "failed" | "blocked";
                            /** @description Withdrawals and deposits: the Polygon transaction */
                            txHash?: string | null;
                            /**
                             * @description The kind of movement; deposits and withdrawals are listed as their own types
                             * @enum {string}
                             */
                            type: "transfer" | "withdrawal" | "deposit";
                        }[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createStablecoinWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "walletId": "wal_3f9a2c7e1b5d8046a9e2c1f7",
                     *       "existing": true,
                     *       "depositAddress": "0x52908400098527886E0F7030069857D2E4169EE7"
                     *     }
                     */
                    "application/json": {
                        depositAddress: string;
                        /** @description Always true: every account gets its wallet at registration */
                        existing: boolean;
                        walletId: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createWithdrawal: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: the first response is replayed
                 * @example 3f1c2d9e-6b7a-4c1e-9f0d-2a8b5e7c4d31
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 5,
                 *       "currency": "USDC",
                 *       "address": "0x52908400098527886E0F7030069857D2E4169EE7"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Polygon address to send to: 0x and 40 hex digits; mixed case must match its EIP-55 checksum; never the zero address nor a peerpay address. Omitted: the saved default withdrawal address.
                     * @example 0x52908400098527886E0F7030069857D2E4169EE7
                     */
                    address?: string;
                    /**
                     * @description Amount in major units before the fee (5 is 5 USDC), at most 6 decimals and at most 1,000,000; the 1.49% fee comes out of it and the rest is sent.
                     * @example 5
                     */
                    amount: number;
                    /**
                     * @description USDC or EURC (case-insensitive); anything else is 400 unsupported_currency
                     * @example USDC
                     */
                    currency: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "withdrawalId": "wd_4fZk8Q2WnYb7cT1R9xLmP3",
                     *       "txId": "0x9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c1b3d5f7e9a1c3b5d7f9e1a3c5b7d9f1e",
                     *       "address": "0x52908400098527886E0F7030069857D2E4169EE7",
                     *       "gross": 5,
                     *       "fee": 0.0745,
                     *       "net": 4.9255,
                     *       "currency": "USDC",
                     *       "status": "pending",
                     *       "note": "Sending 4.9255 USDC on Polygon to 0x52908400098527886E0F7030069857D2E4169EE7; it arrives after 1 confirmation, usually within seconds to a minute.",
                     *       "createdAt": "2026-01-05T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @description Where it is sent, EIP-55 checksummed */
                        address: string;
                        /**
                         * Format: date-time
                         * @description When the withdrawal was made
                         */
                        createdAt: string;
                        /**
                         * @description USDC (US dollars) or EURC (euros) on Polygon
                         * @enum {string}
                         */
                        currency: "USDC" | "EURC";
                        /**
                         * @description 1.49% of gross, rounded half-up to 6 decimals, in major units (at most 6 decimals)
                         * @example 0.0745
                         */
                        fee: number;
                        /**
                         * @description What left your balance, in major units (at most 6 decimals)
                         * @example 5
                         */
                        gross: number;
                        /**
                         * @description Gross minus fee: what the address receives, in major units (at most 6 decimals)
                         * @example 4.9255
                         */
                        net: number;
                        /** @description Message for the user; clients forward it unchanged */
                        note: string;
                        /**
                         * @description `pending` until the transaction has the configured confirmations, then `complete`; `failed` (reverted) refunds gross. Follow it in GET /stablecoin/transfers.
                         * @enum {string}
                         */
                        status: "pending" | "complete" | "failed";
                        /** @description Hash of the Polygon transaction that sends `net`; null while the withdrawal waits for peerpay’s hot wallet to hold the tokens (it is sent as soon as it does, and GET /stablecoin/transfers then names the transaction) */
                        txId: string | null;
                        /** @example wd_4fZk8Q2WnYb7cT1R9xLmP3 */
                        withdrawalId: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `amount_too_small`: Amount too small
             *     - `unsupported_currency`: Unsupported currency
             *     - `invalid_address`: Invalid address
             *     - `no_default_address`: No default withdrawal address
             *     - `insufficient_balance`: Insufficient balance
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_amount, amount_too_large, amount_too_small, unsupported_currency, invalid_address, no_default_address, insufficient_balance
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "invalid_address" | "no_default_address" | "insufficient_balance";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             *     - `destination_sanctioned`: Destination sanctioned
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen, destination_sanctioned
                         * @enum {string}
                         */
                        code?: "account_frozen" | "destination_sanctioned";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `idempotency_key_in_use`: Idempotency key in use
             */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_in_use
                         * @enum {string}
                         */
                        code?: "idempotency_key_in_use";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Idempotency key reused with a different request. Codes:
             *     - `idempotency_key_reused`: Idempotency key reused
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_reused
                         * @enum {string}
                         */
                        code?: "idempotency_key_reused";
                        /** @enum {integer} */
                        status?: 422;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             *     - `limit_exceeded`: Limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited, limit_exceeded
                         * @enum {string}
                         */
                        code?: "rate_limited" | "limit_exceeded";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `withdrawal_unavailable`: Withdrawals unavailable
             *     - `screening_unavailable`: Screening unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: withdrawal_unavailable, screening_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "withdrawal_unavailable" | "screening_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    quoteWithdrawal: {
        parameters: {
            query: {
                /**
                 * @description Polygon address; omitted: the saved default withdrawal address
                 * @example 0x52908400098527886E0F7030069857D2E4169EE7
                 */
                address?: string;
                /**
                 * @description Amount before the fee, in major units, e.g. 5 or 5.5 (at most 6 decimals)
                 * @example 5
                 */
                amount: string;
                /**
                 * @description USDC or EURC (case-insensitive)
                 * @example USDC
                 */
                currency: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "gross": 5,
                     *       "fee": 0.0745,
                     *       "feeRate": "1.49%",
                     *       "net": 4.9255,
                     *       "currency": "USDC",
                     *       "address": "0x52908400098527886E0F7030069857D2E4169EE7"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description Where it would go, EIP-55 checksummed
                         * @example 0x52908400098527886E0F7030069857D2E4169EE7
                         */
                        address: string;
                        /**
                         * @description USDC (US dollars) or EURC (euros) on Polygon
                         * @enum {string}
                         */
                        currency: "USDC" | "EURC";
                        /**
                         * @description The 1.49% fee, in major units (at most 6 decimals)
                         * @example 0.0745
                         */
                        fee: number;
                        /** @example 1.49% */
                        feeRate: string;
                        /**
                         * @description Taken from the balance, in major units (at most 6 decimals)
                         * @example 5
                         */
                        gross: number;
                        /**
                         * @description What would arrive at the address, in major units (at most 6 decimals)
                         * @example 4.9255
                         */
                        net: number;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `amount_too_small`: Amount too small
             *     - `unsupported_currency`: Unsupported currency
             *     - `invalid_address`: Invalid address
             *     - `no_default_address`: No default withdrawal address
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_amount, amount_too_large, amount_too_small, unsupported_currency, invalid_address, no_default_address
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "invalid_address" | "no_default_address";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             *     - `destination_sanctioned`: Destination sanctioned
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen, destination_sanctioned
                         * @enum {string}
                         */
                        code?: "account_frozen" | "destination_sanctioned";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             *     - `limit_exceeded`: Limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited, limit_exceeded
                         * @enum {string}
                         */
                        code?: "rate_limited" | "limit_exceeded";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `screening_unavailable`: Screening unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: screening_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "screening_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    getWithdrawalAddress: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description EIP-55 checksummed; null when none is saved */
                        address: string | null;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    setWithdrawalAddress: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x52908400098527886E0F7030069857D2E4169EE7"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Polygon address: 0x and 40 hex digits. Mixed case must be a valid EIP-55 checksum; the zero address is refused.
                     * @example 0x52908400098527886E0F7030069857D2E4169EE7
                     */
                    address: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "address": "0x52908400098527886E0F7030069857D2E4169EE7"
                     *     }
                     */
                    "application/json": {
                        /** @description EIP-55 checksummed */
                        address: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_address`: Invalid address
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_address
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_address";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `destination_sanctioned`: Destination sanctioned
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: destination_sanctioned
                         * @enum {string}
                         */
                        code?: "destination_sanctioned";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `screening_unavailable`: Screening unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: screening_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "screening_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    advanceSandboxClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "days": 3
                 *     }
                 */
                "application/json": {
                    /** @description Whole days, 1 to 3650 */
                    days: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "now": "2026-01-08T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description The service clock after the move
                         */
                        now: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    mintSandboxTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x52908400098527886E0F7030069857D2E4169EE7",
                 *       "amount": 100,
                 *       "currency": "USDC"
                 *     }
                 */
                "application/json": {
                    /** @description Polygon address: 0x and 40 hex digits; mixed case must be a valid EIP-55 checksum; not the zero address */
                    address: string;
                    /**
                     * @description Amount in major units (25.5 is 25.50), greater than 0, at most 6 decimals and at most 1,000,000
                     * @example 100
                     */
                    amount: number;
                    /**
                     * @description USDC or EURC (case-insensitive); anything else is 400 unsupported_currency
                     * @example USDC
                     */
                    currency: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "txHash": "0x9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c1b3d5f7e9a1c3b5d7f9e1a3c5b7d9f1e"
                     *     }
                     */
                    "application/json": {
                        /** @description The mint transaction on the embedded chain */
                        txHash: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `unsupported_currency`: Unsupported currency
             *     - `invalid_address`: Invalid address
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_amount, amount_too_large, unsupported_currency, invalid_address
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_amount" | "amount_too_large" | "unsupported_currency" | "invalid_address";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `funding_unavailable`: Funding unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: funding_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "funding_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /**
                 * @description `nextCursor` of the previous page
                 * @example WyIyMDI2LTAxLTA1VDEwOjAwOjAwLjAwMFoiLCJ0cl80ZlprOFEyV25ZYjdjVDFSOXhMbVAzIl0
                 */
                cursor?: string;
                /**
                 * @description page size, a whole number from 1 to 100; default 20
                 * @example 20
                 */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transactions": [
                     *         {
                     *           "id": "tr_4fZk8Q2WnYb7cT1R9xLmP3:fee",
                     *           "type": "fee",
                     *           "amount": "0.25",
                     *           "currency": "USD",
                     *           "status": "completed",
                     *           "transferId": "tr_4fZk8Q2WnYb7cT1R9xLmP3",
                     *           "payoutId": null,
                     *           "paymentMethod": "instant",
                     *           "counterpartyHandle": "PA-7KQ2M9XD",
                     *           "createdAt": "2026-01-05T10:00:00.000Z",
                     *           "completedAt": "2026-01-05T10:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": "WyIyMDI2LTAxLTA1VDEwOjAwOjAwLjAwMFoiLCJ0cl80ZlprOFEyV25ZYjdjVDFSOXhMbVAzIl0"
                     *     }
                     */
                    "application/json": {
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        transactions: {
                            /**
                             * @description Always positive; `type` says the direction; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            amount: string;
                            completedAt: string | null;
                            counterpartyHandle: string | null;
                            /**
                             * Format: date-time
                             * @description When it was made
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code: USD, EUR, GBP, JPY
                             * @enum {string}
                             */
                            currency: "USD" | "EUR" | "GBP" | "JPY";
                            /** @description Entry id: `<transfer id>:debit|fee|credit`, or the payout id */
                            id: string;
                            paymentMethod: ("instant" | "ach") | null;
                            payoutId: string | null;
                            /** @description Transfers: processing, pending, completed, failed. Payouts: pending, paid, failed. */
                            status: string;
                            transferId: string | null;
                            /**
                             * @description `debit`: the amount you sent. `fee`: its fee. `credit`: money you received. `payout`: money paid out to your payout account.
                             * @enum {string}
                             */
                            type: "debit" | "fee" | "credit" | "payout";
                        }[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    listTransfers: {
        parameters: {
            query?: {
                /**
                 * @description `nextCursor` of the previous page
                 * @example WyIyMDI2LTAxLTA1VDEwOjAwOjAwLjAwMFoiLCJ0cl80ZlprOFEyV25ZYjdjVDFSOXhMbVAzIl0
                 */
                cursor?: string;
                /**
                 * @description page size, a whole number from 1 to 100; default 20
                 * @example 20
                 */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transfers": [
                     *         {
                     *           "id": "tr_4fZk8Q2WnYb7cT1R9xLmP3",
                     *           "direction": "sent",
                     *           "amount": "10.00",
                     *           "fee": "0.25",
                     *           "totalDeducted": "10.25",
                     *           "currency": "USD",
                     *           "status": "completed",
                     *           "failureCode": null,
                     *           "paymentMethod": "instant",
                     *           "counterpartyHandle": "PA-7KQ2M9XD",
                     *           "senderHandle": "PA-3JD8W2QA",
                     *           "recipientHandle": "PA-7KQ2M9XD",
                     *           "note": "Dinner",
                     *           "refunded": "0.00",
                     *           "createdAt": "2026-01-05T10:00:00.000Z",
                     *           "completedAt": "2026-01-05T10:00:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": {
                        /** @description Pass as `cursor` for the next page; null on the last page */
                        nextCursor: string | null;
                        transfers: {
                            /**
                             * @description What the recipient receives; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            amount: string;
                            completedAt: string | null;
                            /**
                             * @description PA- followed by 8 characters
                             * @example PA-7KQ2M9XD
                             */
                            counterpartyHandle: string;
                            /**
                             * Format: date-time
                             * @description When the transfer was made
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code: USD, EUR, GBP, JPY
                             * @enum {string}
                             */
                            currency: "USD" | "EUR" | "GBP" | "JPY";
                            /** @enum {string} */
                            direction: "sent" | "received";
                            failureCode?: string | null;
                            /**
                             * @description Sent transfers only: the fee the caller paid; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            fee?: string;
                            id: string;
                            note: string | null;
                            /**
                             * @description `instant` (the default): charge the saved card now. `ach`: debit the bank account; settles in 3 business days.
                             * @enum {string}
                             */
                            paymentMethod: "instant" | "ach";
                            /**
                             * @description PA- followed by 8 characters
                             * @example PA-7KQ2M9XD
                             */
                            recipientHandle: string;
                            /**
                             * @description How much of the amount was refunded (by the service or the card issuer); failed refunds left out; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            refunded: string;
                            /**
                             * @description PA- followed by 8 characters
                             * @example PA-7KQ2M9XD
                             */
                            senderHandle: string;
                            /**
                             * @description `completed`: the recipient has the money. `pending`: bank debit not settled yet. `failed`: declined or returned; nothing moved. `processing`: being charged right now.
                             * @enum {string}
                             */
                            status: "processing" | "pending" | "completed" | "failed";
                            /**
                             * @description Sent transfers only: amount plus fee; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            totalDeducted?: string;
                        }[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createTransfer: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry of this request safe: the first response is replayed
                 * @example 3f1c2d9e-6b7a-4c1e-9f0d-2a8b5e7c4d31
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "recipientHandle": "PA-7KQ2M9XD",
                 *       "amount": 10,
                 *       "currency": "USD",
                 *       "paymentMethod": "instant",
                 *       "note": "Dinner"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Amount the recipient receives, in major units (10.5 is 10.50 USD); at most the currency’s decimals (2, JPY 0). The fee is charged on top.
                     * @example 10
                     */
                    amount: number;
                    /**
                     * @description USD, EUR, GBP or JPY (case-insensitive)
                     * @example USD
                     */
                    currency: string;
                    /** @description Message to the recipient, at most 500 characters */
                    note?: string;
                    /**
                     * @description `instant` (the default): charge the saved card now. `ach`: debit the bank account; settles in 3 business days.
                     * @enum {string}
                     */
                    paymentMethod?: "instant" | "ach";
                    /**
                     * @description The recipient’s handle, PA- followed by 8 characters
                     * @example PA-7KQ2M9XD
                     */
                    recipientHandle: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transfer": {
                     *         "id": "tr_4fZk8Q2WnYb7cT1R9xLmP3",
                     *         "amount": "10.00",
                     *         "fee": "0.25",
                     *         "totalDeducted": "10.25",
                     *         "currency": "USD",
                     *         "status": "completed",
                     *         "paymentMethod": "instant",
                     *         "recipientHandle": "PA-7KQ2M9XD",
                     *         "note": "Dinner",
                     *         "createdAt": "2026-01-05T10:00:00.000Z",
                     *         "expectedSettlementAt": null,
                     *         "completedAt": "2026-01-05T10:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        transfer: {
                            /**
                             * @description What the recipient receives; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            amount: string;
                            completedAt: string | null;
                            /**
                             * Format: date-time
                             * @description When the transfer was made
                             */
                            createdAt: string;
                            /**
                             * @description ISO 4217 code: USD, EUR, GBP, JPY
                             * @enum {string}
                             */
                            currency: "USD" | "EUR" | "GBP" | "JPY";
                            expectedSettlementAt: string | null;
                            /**
                             * @description 2.49% (instant) or 0.8% (ach) of the amount, rounded half-up, paid by the sender; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            fee: string;
                            /**
                             * @description Transfer id
                             * @example tr_4fZk8Q2WnYb7cT1R9xLmP3
                             */
                            id: string;
                            note: string | null;
                            /**
                             * @description `instant` (the default): charge the saved card now. `ach`: debit the bank account; settles in 3 business days.
                             * @enum {string}
                             */
                            paymentMethod: "instant" | "ach";
                            /**
                             * @description PA- followed by 8 characters
                             * @example PA-7KQ2M9XD
                             */
                            recipientHandle: string;
                            /**
                             * @description `completed`: the recipient has the money. `pending`: bank debit not settled yet. `failed`: declined or returned; nothing moved. `processing`: being charged right now.
                             * @enum {string}
                             */
                            status: "processing" | "pending" | "completed" | "failed";
                            /**
                             * @description Amount plus fee: what the sender is charged; exact decimal string with the currency's decimals
                             * @example 10.25
                             */
                            totalDeducted: string;
                        };
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `amount_too_small`: Amount too small
             *     - `unsupported_currency`: Unsupported currency
             *     - `invalid_field`: Invalid characters in a field
             *     - `self_transfer`: Cannot send to yourself
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_amount, amount_too_large, amount_too_small, unsupported_currency, invalid_field, self_transfer
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "invalid_field" | "self_transfer";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Payment required. Codes:
             *     - `card_setup_required`: Card setup required
             *     - `card_declined`: Card declined
             *     - `card_authentication_required`: Card needs its holder
             *     - `card_disputed`: Card payment disputed
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: card_setup_required, card_declined, card_authentication_required, card_disputed
                         * @enum {string}
                         */
                        code?: "card_setup_required" | "card_declined" | "card_authentication_required" | "card_disputed";
                        /** @enum {integer} */
                        status?: 402;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_in_debt`: Account in debt
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_in_debt, account_frozen
                         * @enum {string}
                         */
                        code?: "account_in_debt" | "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `recipient_not_found`: Recipient not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: recipient_not_found
                         * @enum {string}
                         */
                        code?: "recipient_not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `ach_setup_required`: Bank debit setup required
             *     - `idempotency_key_in_use`: Idempotency key in use
             */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: ach_setup_required, idempotency_key_in_use
                         * @enum {string}
                         */
                        code?: "ach_setup_required" | "idempotency_key_in_use";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Idempotency key reused with a different request. Codes:
             *     - `idempotency_key_reused`: Idempotency key reused
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: idempotency_key_reused
                         * @enum {string}
                         */
                        code?: "idempotency_key_reused";
                        /** @enum {integer} */
                        status?: 422;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             *     - `limit_exceeded`: Limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited, limit_exceeded
                         * @enum {string}
                         */
                        code?: "rate_limited" | "limit_exceeded";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `processor_unavailable`: Payment processor unavailable
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: processor_unavailable, service_unavailable
                         * @enum {string}
                         */
                        code?: "processor_unavailable" | "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    quoteTransfer: {
        parameters: {
            query: {
                /**
                 * @description Amount the recipient receives, in major units, e.g. 10 or 10.5 (at most the currency’s decimals)
                 * @example 10
                 */
                amount: string;
                /**
                 * @description USD, EUR, GBP or JPY (case-insensitive)
                 * @example USD
                 */
                currency: string;
                /**
                 * @description `instant` (the default, card) or `ach` (bank debit)
                 * @example instant
                 */
                paymentMethod?: "instant" | "ach";
                /**
                 * @description The recipient’s handle, PA- followed by 8 characters (must exist)
                 * @example PA-7KQ2M9XD
                 */
                recipientHandle: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "amount": "10.00",
                     *       "fee": "0.25",
                     *       "totalDeducted": "10.25",
                     *       "feeRate": "2.49%",
                     *       "currency": "USD",
                     *       "paymentMethod": "instant",
                     *       "recipientHandle": "PA-7KQ2M9XD"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description What the recipient would receive; exact decimal string with the currency's decimals
                         * @example 10.25
                         */
                        amount: string;
                        /**
                         * @description ISO 4217 code: USD, EUR, GBP, JPY
                         * @enum {string}
                         */
                        currency: "USD" | "EUR" | "GBP" | "JPY";
                        /**
                         * @description The fee the sender would pay on top; exact decimal string with the currency's decimals
                         * @example 10.25
                         */
                        fee: string;
                        /** @example 2.49% */
                        feeRate: string;
                        /**
                         * @description `instant` (the default): charge the saved card now. `ach`: debit the bank account; settles in 3 business days.
                         * @enum {string}
                         */
                        paymentMethod: "instant" | "ach";
                        /**
                         * @description PA- followed by 8 characters
                         * @example PA-7KQ2M9XD
                         */
                        recipientHandle: string;
                        /**
                         * @description Amount plus fee: what the sender would be charged; exact decimal string with the currency's decimals
                         * @example 10.25
                         */
                        totalDeducted: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `invalid_amount`: Invalid amount
             *     - `amount_too_large`: Amount too large
             *     - `amount_too_small`: Amount too small
             *     - `unsupported_currency`: Unsupported currency
             *     - `self_transfer`: Cannot send to yourself
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, invalid_amount, amount_too_large, amount_too_small, unsupported_currency, self_transfer
                         * @enum {string}
                         */
                        code?: "invalid_request" | "invalid_amount" | "amount_too_large" | "amount_too_small" | "unsupported_currency" | "self_transfer";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Error. Codes:
             *     - `account_frozen`: Account frozen
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: account_frozen
                         * @enum {string}
                         */
                        code?: "account_frozen";
                        /** @enum {integer} */
                        status?: 403;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `recipient_not_found`: Recipient not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: recipient_not_found
                         * @enum {string}
                         */
                        code?: "recipient_not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             *     - `limit_exceeded`: Limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited, limit_exceeded
                         * @enum {string}
                         */
                        code?: "rate_limited" | "limit_exceeded";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "endpoints": [
                     *         {
                     *           "id": "we_4fZk8Q2WnYb7cT1R9xLmP3",
                     *           "url": "https://example.com/peerpay/webhooks",
                     *           "events": [
                     *             "transfer.received"
                     *           ],
                     *           "status": "enabled",
                     *           "createdAt": "2026-01-05T10:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        endpoints: {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The event types it receives; null: all */
                            events: ("transfer.sent" | "transfer.received" | "transfer.completed" | "transfer.failed" | "deposit.credited" | "withdrawal.completed" | "withdrawal.failed" | "payout.paid" | "payout.failed" | "link.completed" | "x402.payment.settled" | "funds.released" | "transfer.refunded" | "transfer.disputed" | "dispute.closed" | "account.frozen" | "account.unfrozen")[] | null;
                            /**
                             * @description we_ and 22 characters
                             * @example we_4fZk8Q2WnYb7cT1R9xLmP3
                             */
                            id: string;
                            /**
                             * @description `disabled` after 5 days of failed deliveries; create it again to resume
                             * @enum {string}
                             */
                            status: "enabled" | "disabled";
                            /** @example https://example.com/peerpay/webhooks */
                            url: string;
                        }[];
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/peerpay/webhooks",
                 *       "events": [
                 *         "transfer.received"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The event types to send (transfer.sent, transfer.received, transfer.completed, transfer.failed, deposit.credited, withdrawal.completed, withdrawal.failed, payout.paid, payout.failed, link.completed, x402.payment.settled, funds.released, transfer.refunded, transfer.disputed, dispute.closed, account.frozen, account.unfrozen); omitted: all of them
                     * @example [
                     *       "transfer.received",
                     *       "deposit.credited"
                     *     ]
                     */
                    events?: string[];
                    /**
                     * @description Where to POST events: https:// (or http://). In live mode a host that resolves to a loopback, private, link-local or other internal address is refused.
                     * @example https://example.com/peerpay/webhooks
                     */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_4fZk8Q2WnYb7cT1R9xLmP3",
                     *       "url": "https://example.com/peerpay/webhooks",
                     *       "events": [
                     *         "transfer.received"
                     *       ],
                     *       "status": "enabled",
                     *       "createdAt": "2026-01-05T10:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description The event types it receives; null: all */
                        events: ("transfer.sent" | "transfer.received" | "transfer.completed" | "transfer.failed" | "deposit.credited" | "withdrawal.completed" | "withdrawal.failed" | "payout.paid" | "payout.failed" | "link.completed" | "x402.payment.settled" | "funds.released" | "transfer.refunded" | "transfer.disputed" | "dispute.closed" | "account.frozen" | "account.unfrozen")[] | null;
                        /**
                         * @description we_ and 22 characters
                         * @example we_4fZk8Q2WnYb7cT1R9xLmP3
                         */
                        id: string;
                        /**
                         * @description The signing secret, `whsec_` + base64: shown this once; verify webhooks with it (Standard Webhooks)
                         * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
                         */
                        secret: string;
                        /**
                         * @description `disabled` after 5 days of failed deliveries; create it again to resume
                         * @enum {string}
                         */
                        status: "enabled" | "disabled";
                        /** @example https://example.com/peerpay/webhooks */
                        url: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             *     - `invalid_field`: Invalid characters in a field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json, invalid_field
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json" | "invalid_field";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Conflict with the current state. Codes:
             *     - `limit_reached`: Limit reached
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: limit_reached
                         * @enum {string}
                         */
                        code?: "limit_reached";
                        /** @enum {integer} */
                        status?: 409;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The endpoint id
                 * @example we_4fZk8Q2WnYb7cT1R9xLmP3
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "we_4fZk8Q2WnYb7cT1R9xLmP3",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        /** @example true */
                        deleted: boolean;
                        /** @example we_4fZk8Q2WnYb7cT1R9xLmP3 */
                        id: string;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             *     - `malformed_json`: Malformed JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request, malformed_json
                         * @enum {string}
                         */
                        code?: "invalid_request" | "malformed_json";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `not_found`: Not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: not_found
                         * @enum {string}
                         */
                        code?: "not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Request body too large. Codes:
             *     - `body_too_large`: Request body too large
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: body_too_large
                         * @enum {string}
                         */
                        code?: "body_too_large";
                        /** @enum {integer} */
                        status?: 413;
                    };
                };
            };
            /**
             * @description Unsupported content type. Codes:
             *     - `unsupported_media_type`: Unsupported media type
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unsupported_media_type
                         * @enum {string}
                         */
                        code?: "unsupported_media_type";
                        /** @enum {integer} */
                        status?: 415;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description `nextCursor` of the previous page
                 * @example 1234
                 */
                cursor?: string;
                /**
                 * @description page size, a whole number from 1 to 100; default 20
                 * @example 20
                 */
                limit?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The endpoint id
                 * @example we_4fZk8Q2WnYb7cT1R9xLmP3
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deliveries": [
                     *         {
                     *           "eventId": "evt_4fZk8Q2WnYb7cT1R9xLmP3",
                     *           "eventType": "transfer.received",
                     *           "attempt": 1,
                     *           "attemptedAt": "2026-01-05T10:00:01.000Z",
                     *           "statusCode": 200,
                     *           "error": null,
                     *           "durationMs": 84,
                     *           "succeeded": true
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": {
                        /** @description Every attempt, newest first */
                        deliveries: {
                            /** @description 1 for the first try of this event at this endpoint */
                            attempt: number;
                            /** Format: date-time */
                            attemptedAt: string;
                            durationMs: number;
                            /** @description Why it failed (a status, a timeout, a refused address) */
                            error: string | null;
                            eventId: string;
                            /**
                             * @description The event type
                             * @example transfer.received
                             * @enum {string}
                             */
                            eventType: "transfer.sent" | "transfer.received" | "transfer.completed" | "transfer.failed" | "deposit.credited" | "withdrawal.completed" | "withdrawal.failed" | "payout.paid" | "payout.failed" | "link.completed" | "x402.payment.settled" | "funds.released" | "transfer.refunded" | "transfer.disputed" | "dispute.closed" | "account.frozen" | "account.unfrozen";
                            /** @description What the endpoint answered; null when it did not */
                            statusCode: number | null;
                            /** @description Any 2xx within 10 s */
                            succeeded: boolean;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /**
             * @description Missing or invalid request fields. Codes:
             *     - `invalid_request`: Invalid request
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: invalid_request
                         * @enum {string}
                         */
                        code?: "invalid_request";
                        /** @enum {integer} */
                        status?: 400;
                    };
                };
            };
            /**
             * @description Missing or invalid API key, or incorrect password. Codes:
             *     - `unauthorized`: Missing or invalid API key
             */
            401: {
                headers: {
                    /** @description unauthorized: `Bearer realm="peerpay"` */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: unauthorized
                         * @enum {string}
                         */
                        code?: "unauthorized";
                        /** @enum {integer} */
                        status?: 401;
                    };
                };
            };
            /**
             * @description Not found. Codes:
             *     - `not_found`: Not found
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: not_found
                         * @enum {string}
                         */
                        code?: "not_found";
                        /** @enum {integer} */
                        status?: 404;
                    };
                };
            };
            /**
             * @description Too many requests; retry after Retry-After. Codes:
             *     - `rate_limited`: Rate limit exceeded
             */
            429: {
                headers: {
                    /** @description rate_limited: what is left, e.g. `"default";r=0;t=30` */
                    RateLimit?: string;
                    /** @description rate_limited: the limit, e.g. `"default";q=1200;w=60` */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: rate_limited
                         * @enum {string}
                         */
                        code?: "rate_limited";
                        /** @enum {integer} */
                        status?: 429;
                    };
                };
            };
            /**
             * @description Server error; retry after a brief wait. Codes:
             *     - `internal_error`: Internal server error
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: internal_error
                         * @enum {string}
                         */
                        code?: "internal_error";
                        /** @enum {integer} */
                        status?: 500;
                    };
                };
            };
            /**
             * @description Temporarily unavailable; retry after Retry-After. Codes:
             *     - `service_unavailable`: Service unavailable
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /**
                         * @description At this status: service_unavailable
                         * @enum {string}
                         */
                        code?: "service_unavailable";
                        /** @enum {integer} */
                        status?: 503;
                    };
                };
            };
        };
    };
}
