// What every answer to a fuzz case must be, and how a failing case is shown: the method, path,
// query, headers and body as sent, with API keys and payment signatures cut short.
import type { FuzzCase, Operation } from './cases.js';
import type { BodyCheck } from './document-schemas.js';
import type { RawAnswer } from './raw-http.js';

export interface Violation {
  /** Same signature, same bug: the report shows one example of each. */
  signature: string;
  message: string;
}

export function codeOf(answer: RawAnswer): string | undefined {
  try {
    return JSON.parse(answer.text)?.code;
  } catch {
    return undefined;
  }
}

/** Why a 4xx answer is not a problem document (type, title, status = the HTTP status, detail, code), or null. */
export function problemViolation(answer: RawAnswer, method: string): string | null {
  if (!answer.contentType.startsWith('application/problem+json'))
    return `a ${answer.status} with content-type "${answer.contentType}", not a problem document`;
  if (method === 'HEAD') return null;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} problem document that is not JSON`;
  }
  for (const field of ['type', 'title', 'status', 'detail', 'code']) {
    if (typeof body?.[field] !== (field === 'status' ? 'number' : 'string'))
      return `a ${answer.status} problem document without a ${field}`;
  }
  if (body.status !== answer.status) return `a problem document with status ${body.status} on a ${answer.status}`;
  return null;
}

function redact(value: string): string {
  return value
    .replace(/pa_live_[A-Za-z0-9_-]+/g, (key) => `${key.slice(0, 12)}…`)
    .replace(/^(Bearer\s+)?(.{12}).{20,}$/s, (_, bearer = '', start) => `${bearer}${start}…`);
}

export function describeCase(c: FuzzCase): string {
  const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, Array.isArray(v) ? v.map(redact) : redact(v)]));
  const text = c.body?.replace(/("?password"?\s*[:=]\s*"?)[^"&,}]*/g, '$1…');
  const body = text === undefined ? '(none)' : text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text;
  return `[${c.kind}] ${c.method} ${c.path.slice(0, 300)}${c.query ? `?${c.query.slice(0, 300)}` : ''}\n  headers ${JSON.stringify(headers).slice(0, 600)}\n  body ${body}`;
}

/**
 * What is wrong with one answer to a case of `op`: a 5xx; a 4xx that is not a problem document
 * (link pages answer browsers with pages); a status the document does not list for the operation
 * (beside what Node's HTTP parser answers before any route: 431, or 400 for bad framing, both
 * without a request id); a success for a body the documented schema refuses.
 */
export function answerViolations(answer: RawAnswer, c: FuzzCase, op: Operation, bodyCheck: BodyCheck | null): Violation[] {
  const where = `${op.method} ${op.path}`;
  const out: Violation[] = [];
  // GET /health/ready answers 503 not_ready by design when a dependency is slow or failing (on a
  // loaded machine the chain may miss its 2 s): that is the readiness answer, not a server error.
  const notReady = op.path === '/health/ready' && answer.status === 503 && codeOf(answer) === 'not_ready';
  if ((answer.status >= 500 && !notReady) || answer.status < 200) {
    out.push({
      signature: `${where} ${answer.status} ${c.kind}`,
      message: `${answer.status} for ${describeCase(c)}\n  answer ${answer.text.slice(0, 500)}`,
    });
  }
  const ownOperation = c.method === op.method && !c.kind.includes('path');
  const parserAnswer = answer.requestId === undefined && (answer.status === 431 || answer.status === 400);
  if (op.statuses && ownOperation && !parserAnswer && !op.statuses.includes(answer.status)) {
    out.push({
      signature: `${where} undocumented ${answer.status}`,
      message: `${answer.status} (${codeOf(answer)}), which the document does not list for ${where} (${op.statuses.join(', ')}), for ${describeCase(c)}`,
    });
  }
  // A path that climbs out of its route must never answer with a file from the disk.
  if (answer.status < 300 && c.kind.includes('path') && /root:x:0:0|"devDependencies"|PRIVATE KEY-----/.test(answer.text)) {
    out.push({
      signature: `${where} served a file`,
      message: `${answer.status} with a file from the disk for ${describeCase(c)}\n  answer ${answer.text.slice(0, 200)}`,
    });
  }
  const refused = answer.status < 300 && c.method === op.method ? bodyCheck?.(c.body, c.headers['content-type']) : null;
  if (refused)
    out.push({
      signature: `${where} accepts what the document refuses`,
      message: `${answer.status} for a body the document refuses (${refused}): ${describeCase(c)}`,
    });
  if (answer.status >= 400 && answer.status < 500) {
    const page = op.page && answer.contentType.startsWith('text/html');
    const notProblem = page ? null : problemViolation(answer, c.method);
    if (notProblem)
      out.push({
        signature: `${where} ${notProblem} ${c.kind}`,
        message: `${notProblem} for ${describeCase(c)}\n  answer ${answer.text.slice(0, 300)}`,
      });
  }
  return out;
}
