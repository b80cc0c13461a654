// Questions on the terminal: a yes before money moves, and a password that is not echoed.
import readline from 'node:readline/promises';

export async function ask(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** The password: PEERPAY_PASSWORD, the first line of stdin (--password-stdin), or a prompt that does not echo. */
export async function readPassword(options: { fromStdin: boolean; env: string | undefined }): Promise<string> {
  if (options.fromStdin) return firstLineOfStdin();
  if (options.env) return options.env;
  if (!process.stdin.isTTY) throw new Error('No password: pass --password-stdin, set PEERPAY_PASSWORD, or run in a terminal.');
  return hiddenPrompt('Password: ');
}

async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > 10_000) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

function hiddenPrompt(question: string): Promise<string> {
  process.stdout.write(question);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stdout.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          finish();
          return resolve(value);
        }
        if (ch === '\u0003' || ch === '\u0004') {
          finish();
          return reject(new Error('cancelled'));
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
