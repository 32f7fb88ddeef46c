import { Agent, request } from 'node:http';

export interface ClientAnswer {
  status: number;
  body: Record<string, unknown>;
  /** The answer's `Connection` header: `close` when the server ends the connection after it. */
  connection: string | undefined;
}

/**
 * A client as a browser or an upstream service is one: one keep-alive connection at a time (an
 * http.Agent with a single socket), requests one after another on it, a new connection only after
 * the server closed the last one. It never retries: a request whose connection fails is a
 * failure, reported as the error it got.
 */
export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly baseUrl: string,
    private readonly answerTimeoutMs = 30_000,
  ) {}

  send(method: 'GET' | 'POST', path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<ClientAnswer> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const call = request(new URL(path, this.baseUrl), { method, agent: this.agent, headers, timeout: this.answerTimeoutMs }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('aborted', () => reject(new Error('the answer was cut off')));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown>;
          try {
            body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            body = { text };
          }
          resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection });
        });
      });
      call.on('timeout', () => call.destroy(new Error(`no answer within ${this.answerTimeoutMs} ms`)));
      call.on('error', reject);
      call.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
