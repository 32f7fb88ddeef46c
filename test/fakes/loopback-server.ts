import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP lifecycle the provider fakes share: one plain-HTTP server on loopback, a random free
 * port by default, and a stop that does not wait for the service's keep-alive connections.
 */
export abstract class LoopbackServer {
  private readonly server: Server;
  private address?: AddressInfo;

  protected constructor(private readonly label: string) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;

  get url(): string {
    if (!this.address) throw new Error(`The ${this.label} is not started`);
    return `http://127.0.0.1:${this.address.port}`;
  }

  get port(): number {
    return this.address!.port;
  }

  /** Listens on `port` (0: a random free port) of `host` (loopback by default). */
  async start(port = 0, host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, resolve);
    });
    this.address = this.server.address() as AddressInfo;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }
}

/** A recorded request as the `serve.ts` scripts print it. */
interface PrintedRequest {
  status?: number;
  method: string;
  path: string;
}

/**
 * For the `serve.ts` scripts: prints each recorded request as it arrives and stops the fake on
 * SIGINT or SIGTERM.
 */
export function serveUntilSignalled(fake: LoopbackServer, recorded: () => readonly PrintedRequest[]): void {
  let printed = 0;
  setInterval(() => {
    const requests = recorded();
    for (const request of requests.slice(printed)) process.stdout.write(`${request.status ?? '…'} ${request.method} ${request.path}\n`);
    printed = requests.length;
  }, 500).unref();
  const stop = () => void fake.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
