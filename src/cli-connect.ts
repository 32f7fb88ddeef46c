import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ConnectIo } from './modules/gateways/index.js';

/**
 * The terminal side of the gateway slices' connect commands (GatewayConnectCommand, registered by
 * each slice with `@GatewaySlice({ connect })`; src/cli.ts runs them).
 */

/**
 * A prompt on a terminal: the question on `output`, the answer read from `input`, and with
 * `hidden` nothing of what is typed echoed back. Null when `input` is not a terminal.
 */
export function terminalPrompt(input: Readable & { isTTY?: boolean } = process.stdin, output: Writable = process.stderr): ConnectIo['prompt'] {
  return (question, { hidden }) => {
    if (!input.isTTY) return Promise.resolve(null);
    return new Promise((resolve) => {
      const rl = createInterface({ input, output, terminal: true });
      let muted = false;
      // readline echoes through _writeToOutput; while muted nothing typed reaches the terminal.
      const internal = rl as unknown as { _writeToOutput(text: string): void };
      const write = internal._writeToOutput.bind(rl);
      internal._writeToOutput = (text: string) => {
        if (!muted) write(text);
      };
      rl.question(question, (answer) => {
        if (hidden) output.write('\n');
        rl.close();
        resolve(answer);
      });
      muted = hidden;
    });
  };
}
