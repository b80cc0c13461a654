// A promise rejected with nobody to handle it means a piece of peerpay's work was lost half done:
// the process logs it (as fatal, with the error) and exits non-zero, and its supervisor starts a
// clean one. Nothing is left to run after such a loss; jobs and idempotent retries pick up the rest.
export interface FatalLogger {
  fatal(fields: Record<string, unknown>, message: string): void;
  flush?(): void;
}

export function installFatalHandlers(log: FatalLogger, exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on('unhandledRejection', (reason) => {
    log.fatal({ err: reason instanceof Error ? reason : new Error(String(reason)) }, 'unhandled rejection; peerpay stops');
    log.flush?.();
    exit(1);
  });
}
