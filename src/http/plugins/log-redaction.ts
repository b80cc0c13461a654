// Link URLs carry their secret token in the path; logs see only its first characters. So do the
// console's one-time enrolment links (/console/enrol/<token>, made by POST /admin/operators). Query
// strings carry e-mail addresses, and sometimes a secret a client put where it does not belong
// (a token or key as ?token=...): logs keep the parameter names and none of the values.
const TOKEN_PATHS = /^(\/(?:(?:links|l)\/[a-z-]+|console\/enrol)\/)([^/?#]+)/i;

export function redactUrl(url: string): string {
  // Most requests carry neither: logged as they are, without splitting or matching (every request is logged).
  if (!url.includes('?') && url[1] !== 'l' && url[1] !== 'L' && url[1] !== 'c' && url[1] !== 'C') return url;
  const [path = '', query] = url.split('?', 2);
  const redactedPath = path.replace(TOKEN_PATHS, (_all, prefix: string, token: string) => `${prefix}${token.slice(0, 4)}…`);
  if (query === undefined) return redactedPath;
  const names = query.split('&').map((pair) => `${pair.split('=', 1)[0]}=…`);
  return `${redactedPath}?${names.join('&')}`;
}
