import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

export interface SinkMessage {
  from: string;
  to: string[];
  raw: string;
  /** The message's `Message-ID` header. */
  messageId: string | undefined;
  /** When its DATA phase began and when the server acknowledged it (ms since the epoch). */
  startedAt: number;
  acceptedAt: number;
}

/**
 * A real SMTP server on a free local port whose answers a test steers:
 * - `hold`: DATA is read but not acknowledged (the client waits; a killed client leaves it
 *   unaccepted; `releaseHeld` refuses it), so a send can be caught between its start and its end;
 * - `refuse`: recipients the server refuses at RCPT (550), so one email of several fails;
 * - `delayMs`: how long each acknowledgement of DATA takes.
 * `accepted` holds the messages the server acknowledged (250), `started` counts DATA phases begun.
 */
export class SmtpSink {
  readonly accepted: SinkMessage[] = [];
  started = 0;
  hold = false;
  delayMs = 0;
  readonly refuse = new Set<string>();
  private readonly held: Array<(error?: Error) => void> = [];
  private server!: SMTPServer;
  url = '';

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    sink.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (sink.refuse.has(address.address)) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        callback();
      },
      onData(stream, session: SMTPServerSession, callback) {
        const startedAt = Date.now();
        sink.started++;
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (sink.hold) return void sink.held.push(callback); // not acknowledged until released
          const raw = Buffer.concat(chunks).toString('utf8');
          setTimeout(() => {
            sink.accepted.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw,
              messageId: header(raw, 'Message-ID'),
              startedAt,
              acceptedAt: Date.now(),
            });
            callback();
          }, sink.delayMs);
        });
      },
    });
    // A client killed mid-session resets its connection: the server reports it as an 'error' event,
    // which would otherwise be thrown.
    sink.server.on('error', () => undefined);
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.url = `smtp://127.0.0.1:${(sink.server.server.address() as AddressInfo).port}`;
    return sink;
  }

  /** Answers every held DATA with a temporary failure (451), so the waiting clients finish. */
  releaseHeld(): void {
    for (const callback of this.held.splice(0)) callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
  }

  /** How many accepted messages carry `messageId`. */
  count(messageId: string): number {
    return this.accepted.filter((message) => message.messageId === messageId).length;
  }

  /** Resolves once `done()` holds (polled every 50 ms), or fails after `timeoutMs`. */
  async until(what: string, done: () => boolean, timeoutMs = 20_000): Promise<void> {
    const giveUpAt = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > giveUpAt) throw new Error(`SMTP sink: ${what} did not happen within ${timeoutMs} ms (accepted ${this.accepted.length}, started ${this.started})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    this.releaseHeld();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A header of a raw message, unfolded. */
export function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
}
