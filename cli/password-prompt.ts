// `--password-stdin` on a terminal: the password is typed at a prompt that does not echo it, twice (a typo in a
// password nobody sees would lock its owner out). Piped in, stdin is read whole instead (cli/context.ts).
import type { ReadStream } from 'node:tty';
import { UsageError } from './output.ts';

/** A terminal stdin (the process's, when it is a TTY): what a prompt needs of it. */
export type TerminalInput = Pick<ReadStream, 'isTTY' | 'setRawMode' | 'setEncoding' | 'on' | 'off' | 'resume' | 'pause'>;

export const isTerminal = (stdin: unknown): stdin is TerminalInput => (stdin as { isTTY?: boolean }).isTTY === true;

/**
 * Asks each question in turn on `write` and answers what was typed after each, echoing nothing: the terminal is in
 * raw mode while it reads (Enter ends an answer, Backspace removes a character, Ctrl-C or Ctrl-D gives up). One
 * listener reads every answer, so answers typed ahead of their prompt are kept.
 */
export async function promptHidden(input: TerminalInput, write: (text: string) => void, questions: readonly string[]): Promise<string[]> {
  const answers: string[] = [];
  let typed = '';
  // Raw before the first question shows: nothing typed after it is echoed.
  input.setRawMode(true);
  input.setEncoding('utf8');
  write(questions[0]!);
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const onData = (chunk: string) => {
        for (const char of chunk) {
          if (char === '\u0003' || char === '\u0004') {
            input.off('data', onData);
            reject(new UsageError('no password was given: nothing was changed'));
            return;
          }
          if (char === '\r' || char === '\n') {
            answers.push(typed);
            typed = '';
            write('\n');
            if (answers.length === questions.length) {
              input.off('data', onData);
              resolve(answers);
              return;
            }
            write(questions[answers.length]!);
          } else if (char === '\u007f' || char === '\b') {
            typed = typed.slice(0, -1);
          } else {
            typed += char;
          }
        }
      };
      input.on('data', onData);
      input.resume();
    });
  } finally {
    input.setRawMode(false);
    input.pause();
  }
}

/** A new password typed twice at a terminal; the two must match. */
export async function promptNewPassword(input: TerminalInput, write: (text: string) => void, minLength: number): Promise<string> {
  const [password, again] = await promptHidden(input, write, [`Password (at least ${minLength} characters, not shown): `, 'The same password again: ']);
  if (password !== again) throw new UsageError('the two passwords differ: nothing was changed');
  return password!;
}
