// What every command module of the peerpay command is given (DESIGN §21: one module per command):
// how to answer (text, or JSON with --json), the service's URL, a client on the user's key, and the
// exit codes.
import type { PeerpayClient } from '@peerpay/client';

/** Exit codes: 0 done, 1 refused by the service or failed, 2 usage, 3 not confirmed (nothing moved). */
export class Exit extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The error code of the --json answer (by default from the exit code). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export interface CliContext {
  /** Prints the answer: `json` with --json, else `text`. */
  out(json: unknown, text: string): void;
  /** Whether --json was given. */
  json(): boolean;
  /** The service: --url, PEERPAY_URL, the saved one, or the default. */
  baseUrl(): string;
  /** A client on the user's API key (exit 2 without one). */
  client(): PeerpayClient;
  /** Names the currency of the movement being quoted or made, for refusals that name amounts only. */
  movementIn(currency: string): void;
}
