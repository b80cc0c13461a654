// The console's cookies (DESIGN §18): HttpOnly and SameSite=Strict always, Secure in live mode
// (the plugin passes secureCookies for live mode), scoped to /console.
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { setCookie } from '../../src/console/console-http.js';

function fakeReply() {
  const headers: Record<string, unknown> = {};
  const reply = {
    getHeader: (name: string) => headers[name],
    header(name: string, value: unknown) {
      headers[name] = value;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, headers };
}

describe('console cookies', () => {
  it('are HttpOnly, SameSite=Strict and under /console; Secure when asked (live mode)', () => {
    const sandbox = fakeReply();
    setCookie(sandbox.reply, 'peerpay_console', 'abc', { secure: false });
    expect(sandbox.headers['set-cookie']).toEqual(['peerpay_console=abc; Path=/console; HttpOnly; SameSite=Strict']);
    const live = fakeReply();
    setCookie(live.reply, 'peerpay_console', 'abc', { secure: true });
    setCookie(live.reply, 'peerpay_console_form', null, { secure: true });
    expect(live.headers['set-cookie']).toEqual([
      'peerpay_console=abc; Path=/console; HttpOnly; SameSite=Strict; Secure',
      'peerpay_console_form=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    ]);
  });
});
