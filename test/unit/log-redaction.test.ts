// What request URLs look like in the logs (src/http/plugins/log-redaction.ts).
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/plugins/log-redaction.js';

describe('URLs in the logs', () => {
  it('keep a plain path as it is', () => {
    expect(redactUrl('/stablecoin/balance')).toBe('/stablecoin/balance');
    expect(redactUrl('/account')).toBe('/account');
  });

  it("keep only the first characters of a link's token, whatever the path's case", () => {
    expect(redactUrl('/links/pay/abcdefghijklmnop')).toBe('/links/pay/abcd…');
    expect(redactUrl('/l/fund/abcdefghijklmnop/next')).toBe('/l/fund/abcd…/next');
    expect(redactUrl('/LINKS/pay/abcdefghijklmnop')).toBe('/LINKS/pay/abcd…');
    expect(redactUrl('/L/pay/abcdefghijklmnop')).toBe('/L/pay/abcd…');
  });

  it("keep only the first characters of a console enrolment link's token", () => {
    expect(redactUrl('/console/enrol/5Rk2Yq8NwT1cLm4Xb7Vz0Ps9Hd3Gf6Ja2Ue5RiOw8Bn1')).toBe('/console/enrol/5Rk2…');
    expect(redactUrl('/console/accounts/42')).toBe('/console/accounts/42');
  });

  it('keep the names of query parameters and none of their values', () => {
    expect(redactUrl('/agent/transfer/quote?to=alice%40example.com&amount=5')).toBe('/agent/transfer/quote?to=…&amount=…');
    expect(redactUrl('/account?api_key=pa_live_secret')).toBe('/account?api_key=…');
  });
});
