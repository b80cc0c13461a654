// Where PGlite's time goes, by statement, for bench:profile on PGlite. A CPU profile shows how
// much of peerpay's thread is inside PGlite's engine (most of it, for a transfer), not which of the
// batch's statements it ran. Every statement reaches the engine through one synchronous call,
// `execProtocolRawSync` (src/db/pglite-statements.ts sends bind-execute-sync messages through
// `execProtocol`, which makes it), so timing that call, and reading which statement its message
// names, splits the engine's time by statement. The call also parses the engine's answer (PGlite
// does it while the engine writes), so that is counted with the statement too.
import { PGlite } from '@electric-sql/pglite';

interface Times {
  calls: number;
  ms: number;
}

const decoder = new TextDecoder();
// A protocol message whose messages exceed this many is not read further: it is labelled by what was read.
const MAX_MESSAGES_READ = 64;
// Statement names remembered at most (peerpay names each statement once and closes the evicted ones,
// so a long profile keeps naming new ones); beyond, the memory starts again empty.
const MAX_TEXTS = 10_000;

/** The text of a NUL-terminated string at `at`, and the offset after it. */
function cstring(bytes: Uint8Array, at: number): [string, number] {
  let end = at;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return [decoder.decode(bytes.subarray(at, end)), end + 1];
}

function shortened(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 100)}…` : flat;
}

/**
 * Times every call into PGlite's engine from now on, by the statement its message runs: a simple
 * query's text, a Parse's text (as "prepare: …"), or the text a Bind's named statement was parsed
 * with. `stop()` puts PGlite back as it was and answers what was measured.
 */
export function timePgliteStatements(): { reset(): void; stop(): Map<string, Times> } {
  const prototype = PGlite.prototype as unknown as { execProtocolRawSync(message: Uint8Array): Uint8Array };
  const original = prototype.execProtocolRawSync;
  const texts = new Map<string, string>();
  let times = new Map<string, Times>();

  // A message holds closes of evicted statements, then a Parse (and Describe) to prepare one, or
  // a Bind and Execute to run one, or a simple Query; an unnamed statement without parameters is
  // parsed and run in one message.
  const labelOf = (message: Uint8Array): string => {
    const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
    let parsed: string | undefined;
    let bound: string | undefined;
    for (let at = 0, read = 0; at + 5 <= message.length && read < MAX_MESSAGES_READ; read++) {
      const type = String.fromCharCode(message[at]!);
      if (type === 'Q') return shortened(cstring(message, at + 5)[0]);
      if (type === 'P') {
        const [name, afterName] = cstring(message, at + 5);
        parsed = shortened(cstring(message, afterName)[0]);
        if (texts.size >= MAX_TEXTS) texts.clear();
        texts.set(name, parsed);
      } else if (type === 'B') {
        const [, afterPortal] = cstring(message, at + 5);
        const [statement] = cstring(message, afterPortal);
        bound = texts.get(statement) ?? `(statement ${statement || 'unnamed'})`;
      }
      at += 1 + view.getUint32(at + 1);
    }
    if (bound !== undefined) return bound;
    return parsed !== undefined ? `prepare: ${parsed}` : '(other protocol message)';
  };

  prototype.execProtocolRawSync = function timed(this: unknown, message: Uint8Array): Uint8Array {
    const label = labelOf(message);
    const start = performance.now();
    try {
      return original.call(this, message);
    } finally {
      const entry = times.get(label) ?? { calls: 0, ms: 0 };
      entry.calls++;
      entry.ms += performance.now() - start;
      times.set(label, entry);
    }
  };
  return {
    reset() {
      times = new Map();
    },
    stop() {
      prototype.execProtocolRawSync = original; // again is harmless
      return times;
    },
  };
}

/** The profile summary's table: the statements that took most of the engine's time, per 2xx answer. */
export function statementTimesTable(times: Map<string, Times>, answers: number, rows = 12): string[] {
  if (times.size === 0 || answers === 0) return [];
  const all = [...times].sort((a, b) => b[1].ms - a[1].ms);
  const totalMs = all.reduce((sum, [, t]) => sum + t.ms, 0);
  const perAnswer = (ms: number) => ((ms * 1000) / answers).toFixed(0);
  return [
    '',
    "## Time inside PGlite's engine by statement",
    '',
    `Each call into the engine (\`execProtocolRawSync\`, the parsing of its answer included), by the statement it ran, during the load: ${perAnswer(totalMs)} µs per 2xx answer in all, ${all.length} statements.`,
    '',
    '| Statement | Calls | µs per call | µs per 2xx answer | Share of the engine’s time |',
    '|---|---:|---:|---:|---:|',
    ...all
      .slice(0, rows)
      .map(
        ([label, t]) =>
          `| \`${label.replace(/\|/g, '\\|')}\` | ${t.calls} | ${((t.ms * 1000) / t.calls).toFixed(0)} | ${perAnswer(t.ms)} | ${((100 * t.ms) / totalMs).toFixed(1)}% |`,
      ),
  ];
}
