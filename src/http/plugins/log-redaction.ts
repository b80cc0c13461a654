// Link URLs carry their secret token in the path; logs see only its first characters.
const TOKEN_PATHS = /^(\/(?:links|l)\/[a-z-]+\/)([^/?#]+)/i;

export function redactUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  const redactedPath = path.replace(TOKEN_PATHS, (_all, prefix: string, token: string) => `${prefix}${token.slice(0, 4)}…`);
  return query === undefined ? redactedPath : `${redactedPath}?${query}`;
}
