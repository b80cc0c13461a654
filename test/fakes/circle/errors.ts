// Circle's error answers: an HTTP status and a body {code, message}, with `errors` naming the field
// for a parameter Circle refuses (code 2, "API parameter invalid"). Codes are those Circle and its
// SDK name (e.g. 156004 for a reused entity secret ciphertext).
export class CircleError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly location?: string,
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    if (this.location === undefined) return { code: this.code, message: this.message };
    return {
      code: this.code,
      message: 'API parameter invalid',
      errors: [{ error: 'invalid_value', message: this.message, location: this.location }],
    };
  }
}

export const circleErrors = {
  parameter: (location: string, message: string) => new CircleError(400, 2, message, location),
  unauthorized: () => new CircleError(401, 401, 'Malformed authorization. Are the credentials properly encoded?'),
  notFoundPath: (method: string, path: string) => new CircleError(404, 404, `Cannot ${method} ${path}`),
  methodNotAllowed: (method: string, path: string) => new CircleError(405, 405, `Method ${method} not allowed on ${path}`),
  walletSetNotFound: () =>
    new CircleError(
      404,
      156005,
      "Cannot find target wallet set in the system. Either no such wallet set, or it's not accessible to the caller.",
    ),
  walletNotFound: () =>
    new CircleError(
      404,
      156001,
      "Cannot find target wallet in the system. Either the specified wallet doesn't exist or it's not accessible to the caller.",
    ),
  tokenNotFound: () =>
    new CircleError(
      404,
      156002,
      "Cannot find target token in the system. Either the specified token doesn't exist or it's not accessible to the caller.",
    ),
  transactionNotFound: () =>
    new CircleError(
      404,
      156003,
      "Cannot find target transaction in the system. Either the specified transaction doesn't exist or it's not accessible to the caller.",
    ),
  ciphertextReused: () =>
    new CircleError(
      400,
      156004,
      'Reusing an entity secret ciphertext is not allowed. Please re-encrypt the entity secret to generate new ciphertext.',
    ),
  entitySecretInvalid: () => new CircleError(400, 156013, 'The provided entity secret is invalid.'),
  idempotencyConflict: () => new CircleError(409, 156020, 'Please use a new idempotency key.'),
  blockchain: () => new CircleError(400, 156017, 'The specified blockchain parameters are incorrect.'),
  cursor: () => new CircleError(400, 156012, 'Cannot find corresponding pagination cursor in the system.'),
  notificationKeyNotFound: () => new CircleError(404, 404, 'Public key not found'),
  injected: (status: number) =>
    status === 429 ? new CircleError(429, 429, 'Too many requests') : new CircleError(status, -1, 'Something went wrong'),
};
