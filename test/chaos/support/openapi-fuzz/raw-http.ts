// A bare HTTP/1.1 client for the fuzzer: fetch would normalise `..` out of a path, refuse
// duplicate headers and non-ASCII values, and fix a Content-Type for us. This one sends the path,
// the headers (an array value is the same header sent several times) and the body as given.
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query, sent as they are (no dot-segment removal, no re-encoding). */
  target: string;
  headers: Record<string, string | string[]>;
  body?: string;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
  /** X-Request-Id: every answer from peerpay's routes has one; answers of Node's HTTP parser do not. */
  requestId: string | undefined;
}

/** Header values are byte strings: UTF-8 text goes on the wire as its raw bytes. */
function asBytes(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

export function rawRequest(baseUrl: string, request: RawRequest, timeoutMs = 30_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.map(asBytes) : asBytes(value);
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  // A Transfer-Encoding given by the case frames the body (chunked) or breaks it; else a length.
  if (body !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
    headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        // Non-ASCII path bytes go raw too; spaces and control characters, which would end or
        // break the request line (and which Node refuses to send), are percent-encoded.
        // Control characters are what this escapes.
        // eslint-disable-next-line no-control-regex
        path: asBytes(request.target).replace(/[\u0000-\u0020\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`),
        headers,
        agent: false,
        setHost: true,
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
            requestId: res.headers['x-request-id'] as string | undefined,
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
