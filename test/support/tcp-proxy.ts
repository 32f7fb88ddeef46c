import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of a shared service (Redis), so a test can take "the service" down and bring
 * it back on the same port without touching the real one. `freeze()` keeps connections open but
 * stops passing bytes (a hung server).
 */
export class TcpProxy {
  port = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private frozen = false;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.frozen = false;
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Closes the port and cuts every open connection. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Open connections stay open, but no byte goes through any more. */
  freeze(): void {
    this.frozen = true;
  }

  private accept(client: Socket): void {
    const upstream = connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      if (!this.frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!this.frozen) client.write(chunk);
    });
  }
}

/** A local port nothing listens on (taken and released at once). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
