import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface HttpDrainOutcome {
  /** Connections that were still open when the wait ended and were closed without their answer. */
  forced: number;
}

/**
 * The HTTP side of a graceful shutdown, on the service's `http.Server`. It keeps count of the open
 * connections and of the requests in flight from the start. Once `startDraining()` is called every
 * answer not yet begun carries `Connection: close` (Node then closes its connection after
 * it), and a keep-alive answer already under way has its connection closed once it ends: a
 * client never sends another request on a connection this instance is about to close, it opens a
 * new one, which the load balancer sends elsewhere. `close()` then stops accepting.
 */
export class HttpDrain {
  private readonly sockets = new Set<Socket>();
  private readonly inFlight = new Set<ServerResponse>();
  private draining = false;
  /** Since `startDraining()`. */
  private closedConnections = 0;
  private answeredRequests = 0;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        if (this.draining) this.closedConnections += 1;
      });
    });
    // Before Express: every request, whatever answers it (a route, a body parser's refusal, a 404).
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => this.track(request, response));
  }

  get openConnections(): number {
    return this.sockets.size;
  }

  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /** Connections closed, and requests answered, since the drain started. */
  get counts(): { connectionsClosed: number; requestsAnswered: number } {
    return { connectionsClosed: this.closedConnections, requestsAnswered: this.answeredRequests };
  }

  startDraining(): void {
    if (this.draining) return;
    this.draining = true;
    for (const response of this.inFlight) closeAfter(response);
  }

  /**
   * Stops accepting connections. Idle keep-alive connections are closed at once (Node's
   * `server.close()` does so since Node 19), the others after their answer. Those still open
   * after `waitMs` (a hung request) are closed forcibly.
   */
  async close(waitMs: number): Promise<HttpDrainOutcome> {
    this.startDraining();
    // The server's 'close' comes a little before its last sockets' own (libuv closes a handle later).
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve())).then(() => this.socketsClosed());
    if (await settlesWithin(closed, waitMs)) return { forced: 0 };
    return { forced: await this.closeAll(closed) };
  }

  /** Closes every connection now, answered or not; the number closed. */
  async closeAll(closed: Promise<unknown> = this.socketsClosed()): Promise<number> {
    const open = this.sockets.size;
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await settlesWithin(closed, 1000);
    return open;
  }

  private socketsClosed(): Promise<unknown> {
    return Promise.all([...this.sockets].map((socket) => new Promise((resolve) => socket.once('close', resolve))));
  }

  private track(request: IncomingMessage, response: ServerResponse): void {
    this.inFlight.add(response);
    if (this.draining) closeAfter(response);
    response.once('close', () => {
      this.inFlight.delete(response);
      if (this.draining) this.answeredRequests += 1;
    });
    // An answer that began as keep-alive before the drain: its connection is closed once it ends.
    response.once('finish', () => {
      if (this.draining && !response.hasHeader('connection')) request.socket.end();
    });
  }
}

/** `Connection: close` on an answer whose headers are not sent yet. */
function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
