// What the operator commands share: the operator API on PEERPAY_OPERATOR_TOKEN, refusals said in
// an operator's terms (a 404 from /admin means the token is no operator's, or the URL is wrong),
// and the note every write needs for the audit log.
import { Exit, type CliContext } from '../../cli-context.js';
import { OperatorApiError, operatorApi, type OperatorApi } from '../../operator-api.js';
import { ask } from '../../prompt.js';

export const OPERATOR_TOKEN_ENV = 'PEERPAY_OPERATOR_TOKEN';

/** The operator API on the token from PEERPAY_OPERATOR_TOKEN (exit 2 without one). */
export function operatorSession(ctx: CliContext): OperatorApi {
  const token = process.env[OPERATOR_TOKEN_ENV]?.trim();
  if (!token)
    throw new Exit(
      2,
      `No operator token: set ${OPERATOR_TOKEN_ENV} to your po_… token (on a fresh installation, the service's OPERATOR_TOKEN).`,
      'usage',
    );
  return operatorApi({ baseUrl: ctx.baseUrl(), token });
}

/** Runs an operator call; its refusals become an Exit that says what to do. */
export async function asOperator<T>(ctx: CliContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof OperatorApiError)) throw error;
    if (error.status === 404)
      throw new Exit(
        1,
        `Not an operator token or wrong URL: ${ctx.baseUrl()} did not accept ${OPERATOR_TOKEN_ENV} (without a valid operator token, every /admin path answers "not found").`,
        'not_operator',
      );
    if (error.code === 'operator_forbidden') throw new Exit(1, `Your operator role cannot do this: ${error.detail}`, error.code);
    if (error.status === 0) throw new Exit(1, `${error.detail}\nIs the service running? Set --url or PEERPAY_URL.`, error.code);
    throw new Exit(1, `Error: ${error.detail} (${error.code})`, error.code);
  }
}

/** The audit note: --note, else asked on the terminal; never empty (the service refuses a write without one). */
export async function auditNote(given: string | undefined): Promise<string> {
  if (given !== undefined) {
    if (given.trim() === '') throw new Exit(2, 'The note may not be empty: say why, for the audit log.', 'usage');
    return given.trim();
  }
  if (!process.stdin.isTTY) throw new Exit(2, 'A note is required for the audit log: pass --note "why".', 'usage');
  const note = (await ask('Note for the audit log (why): ')).trim();
  if (note === '') throw new Exit(2, 'Nothing was changed: a note is required for the audit log.', 'usage');
  return note;
}
