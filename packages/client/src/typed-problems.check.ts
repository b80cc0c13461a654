// Compiled by the package's type check, never run: each refusal's problem is typed by its code.
// Every `@ts-expect-error` below must stay an error (the check fails if one compiles), so reading a
// member outside the code that carries it does not compile.
/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return -- the @ts-expect-error lines read members that do not exist, on purpose */
import { isPeerpayError, PeerpayError, type TypedProblem } from './index.js';

export function readsMembersOnlyWhereTheCodeCarriesThem(error: unknown): string[] {
  const seen: string[] = [];
  if (!(error instanceof PeerpayError)) return seen;
  // @ts-expect-error minimum exists only on amount_too_small
  seen.push(error.problem.minimum);
  if (error.code === 'amount_too_small') {
    const minimum: string = error.problem.minimum;
    seen.push(minimum);
    // @ts-expect-error amount_too_small carries no transferId
    seen.push(error.problem.transferId);
  }
  if (error.code === 'card_declined') seen.push(error.problem.transferId);
  if (error.code === 'ach_setup_required') {
    const always: boolean = error.problem.needsBankDebitSetup;
    // @ts-expect-error transferId is only sometimes there
    const sometimes: string = error.problem.transferId;
    seen.push(String(always), String(sometimes));
  }
  if (error.code === 'invalid_request') seen.push(...(error.problem.errors ?? []).map((e) => e.detail));
  if (error.code === 'payment_required') seen.push(error.problem.price, error.problem.accepts[0]?.maxAmountRequired ?? '');
  if (error.code === 'account_in_debt') seen.push(error.problem.owed);
  if (error.code === 'limit_exceeded') {
    const { limit, window, remaining } = error.problem;
    const retryAfter: number | undefined = error.retryAfterSeconds;
    seen.push(limit, window, remaining, String(retryAfter));
    // @ts-expect-error limit_exceeded carries no owed
    seen.push(error.problem.owed);
  }
  if (error.code === 'network_error') {
    // @ts-expect-error the client's own problems carry no extension members
    seen.push(error.problem.minimum);
  }
  return seen;
}

export function narrowsTheProblemItself(problem: TypedProblem): string | undefined {
  if (problem.code === 'not_ready') return Object.keys(problem.checks).join(',');
  // @ts-expect-error checks exists only on not_ready
  return problem.checks;
}

export function narrowsThroughTheGuard(error: unknown): string | undefined {
  if (isPeerpayError(error, 'amount_too_small')) return error.problem.minimum;
  return undefined;
}
