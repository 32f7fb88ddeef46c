import type { INestApplicationContext } from '@nestjs/common';
import { type CheckoutGateway, GATEWAY_MODES, type GatewayMode } from '../../common/gateway-catalog/index.js';
import { GatewayStateService } from './gateway-state.service.js';

/**
 * A slice's `npm run cli -- <gateway>:connect` command (`connect` of `@GatewaySlice`): connecting a
 * mode with the merchant's own credentials. Secrets come from the environment or a prompt whose
 * input is not echoed, never from argv; they go straight to the slice's own credential path and are
 * never printed. src/cli.ts runs it in the full application; the tests run it in-process.
 */
export interface GatewayConnectCommand {
  /** The command, e.g. `gateway-a:connect` */
  readonly name: string;
  /** Its lines of the CLI's usage text, starting with the name and its options */
  readonly usage: string;
  /** Exit code: 0 only when the mode is connected and ready to take payments */
  run(app: INestApplicationContext, mode: GatewayMode, options: { email?: string }, io: ConnectIo): Promise<number>;
}

export interface ConnectIo {
  /** Where the command's keys may come from (process.env in the CLI); never argv */
  env: NodeJS.ProcessEnv;
  /** Asks for one value; `hidden`: the typed characters are not echoed. Null when no one can answer (no terminal). */
  prompt(question: string, options: { hidden: boolean }): Promise<string | null>;
  out(line: string): void;
  err(line: string): void;
}

/** A connect command used wrongly (exit 2, with the usage text). */
export class ConnectUsageError extends Error {}

export function parseMode(value: string | undefined): GatewayMode {
  if (!value) throw new ConnectUsageError('--mode is required (test or live)');
  if (!(GATEWAY_MODES as readonly string[]).includes(value)) throw new ConnectUsageError('--mode must be test or live');
  return value as GatewayMode;
}

/** An environment variable of the command (trimmed; empty is unset), never printed. */
export function connectEnv(io: ConnectIo, variable: string): string | undefined {
  const value = io.env[variable]?.trim();
  return value ? value : undefined;
}

/** `variable` from the environment, else the answer to `question`; without either, a usage error naming the variable. */
export async function connectValue(io: ConnectIo, variable: string, question: string, hidden: boolean): Promise<string> {
  const fromEnv = connectEnv(io, variable);
  if (fromEnv) return fromEnv;
  const answer = (await io.prompt(question, { hidden }))?.trim();
  if (!answer) throw new ConnectUsageError(`${variable} is not set and there is no terminal to ask for it`);
  return answer;
}

/** A note when the gateway takes payments in the other mode than the one just connected. */
export async function noteSiteMode(app: INestApplicationContext, gateway: CheckoutGateway, mode: GatewayMode, io: ConnectIo): Promise<void> {
  const current = await app.get(GatewayStateService).getMode(gateway);
  if (current !== mode) io.err(`Note: ${gateway} takes payments in ${current} mode; POST /payment-gateway/set-mode switches it to ${mode}.`);
}
