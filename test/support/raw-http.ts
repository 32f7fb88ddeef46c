import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 connection written and read by hand, for tests about connections themselves
 * (keep-alive, `Connection: close`, a request left half sent): which request goes on which
 * connection, and when the server closed it, is exactly what the test says. Answers must carry a
 * Content-Length (the service's do).
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  /** Set when the server closed the connection (`closedBy: 'end'`) or it failed (`'error: …'`). */
  closedBy: string | null = null;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.closedBy ??= `error: ${error.code ?? error.message}`;
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closedBy ??= 'end';
        this.wake();
        resolve();
      }),
    );
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host);
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Writes a whole request (JSON body when given). */
  request(method: string, path: string, body?: unknown): void {
    this.write(requestHead(method, path, body === undefined ? undefined : Buffer.byteLength(JSON.stringify(body))) + (body === undefined ? '' : JSON.stringify(body)));
  }

  /** The next answer on this connection; rejects if the connection ends first or after `timeoutMs`. */
  async answer(timeoutMs = 10_000): Promise<RawAnswer> {
    const giveUpAt = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.closedBy) throw new Error(`the connection closed (${this.closedBy}) before a complete answer`);
      const left = giveUpAt - Date.now();
      if (left <= 0) throw new Error(`no complete answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  private parse(): RawAnswer | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return null;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

/** The head of an HTTP/1.1 request (keep-alive, the default), with a JSON Content-Length when given. */
export function requestHead(method: string, path: string, contentLength?: number): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: checkout.test'];
  if (contentLength !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${contentLength}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
