// Whether a request has been received whole, on a connection that can still carry its answer.
//
// Node hands a request to Fastify as soon as its headers are parsed, before its body (if any) has
// arrived and before the parser has finished with the message: a Transfer-Encoding it cannot
// frame (`gzip` without `chunked`), a chunked body that breaks off or a body that never comes is
// refused by Node's HTTP parser (a 400 or 408 written on the socket by clientErrorProblem) while
// the route's handler is already running. Anything that moves money asks this first, at the last
// moment before the money moves, so that no such refusal can follow a payment.
import type { FastifyRequest } from 'fastify';

export function receivedWhole(request: FastifyRequest): Promise<boolean> {
  const raw = request.raw;
  // app.inject() (the tests, the MCP tools calling the API in-process): the request is an object
  // in memory, whole by construction, with no HTTP parser and no `complete` flag.
  if (typeof raw.complete !== 'boolean') return Promise.resolve(true);
  const open = () => !raw.destroyed && !raw.socket.destroyed && !raw.socket.writableEnded;
  if (raw.complete || !open()) return Promise.resolve(raw.complete && open());
  // The body has not all arrived: routes that move money take none, so it is read and dropped,
  // until its end (whole) or until the parser refuses it or the connection closes (not whole).
  return new Promise((resolve) => {
    const done = () => {
      raw.off('end', done);
      raw.off('close', done);
      raw.off('aborted', done);
      raw.off('error', done);
      resolve(raw.complete && open());
    };
    raw.on('end', done);
    raw.on('close', done);
    raw.on('aborted', done);
    raw.on('error', done);
    raw.resume();
  });
}
