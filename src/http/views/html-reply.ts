// Sends one of peerpay's own HTML pages. Link URLs are bearer secrets: never cached, never sent on
// as a referrer, never framed, and the pages run no script.
import type { FastifyReply } from 'fastify';

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
    .send(html);
}
