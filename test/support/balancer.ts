import { get } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface BalancerTarget {
  /** Counted under this name; `rename` when another process takes the port over. */
  name: string;
  port: number;
}

export interface BalancerStats {
  /** Client connections passed to each target, by the target's name at the time. */
  connections: Record<string, number>;
  /** Connection attempts a target refused (nothing listening), each retried on the next target. */
  refused: number;
  /** Client connections dropped because no target accepted within `connectDeadlineMs`. */
  unplaced: number;
}

/**
 * A small TCP load balancer in front of instances of the service, as a test's stand-in for the one
 * in front of a real deployment:
 * - it asks each target's `GET /readyz` every `probeIntervalMs` and gives new connections to the
 *   ready ones in turn (to every target while none is ready);
 * - a connection a target *refused* is tried on the next one: nothing reached that target. That is
 *   the only retry. Once a target accepted a connection the bytes flow both ways untouched, and if
 *   the target resets it, the client's connection is reset too: a request that reached an instance
 *   is never sent again.
 * One client connection is one target connection, for its whole life (keep-alive included).
 */
export class Balancer {
  port = 0;
  readonly stats: BalancerStats = { connections: {}, refused: 0, unplaced: 0 };
  private server: Server | null = null;
  private readonly ready = new Map<BalancerTarget, boolean>();
  private readonly sockets = new Set<Socket>();
  private turn = 0;
  private probeTimer?: NodeJS.Timeout;

  constructor(
    private readonly targets: BalancerTarget[],
    private readonly options: { probeIntervalMs?: number; connectDeadlineMs?: number } = {},
  ) {
    for (const target of targets) this.ready.set(target, false);
  }

  async start(): Promise<this> {
    const server = createServer({ pauseOnConnect: true }, (client) => this.place(client, Date.now() + (this.options.connectDeadlineMs ?? 5000), 0));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
    await this.probe();
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Whether the last probe found the target ready. */
  isReady(name: string): boolean {
    return [...this.ready].some(([target, ready]) => target.name === name && ready);
  }

  /** Counts the target on `port` under `name` from now on (another process took the port over). */
  rename(port: number, name: string): void {
    for (const target of this.targets) if (target.port === port) target.name = name;
  }

  async stop(): Promise<void> {
    clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The targets in the order to try: the ready ones first, from the next in turn. */
  private order(): BalancerTarget[] {
    const start = this.turn++ % this.targets.length;
    const rotated = [...this.targets.slice(start), ...this.targets.slice(0, start)];
    const ready = rotated.filter((target) => this.ready.get(target));
    return [...ready, ...rotated.filter((target) => !this.ready.get(target))];
  }

  private place(client: Socket, deadline: number, attempt: number): void {
    this.track(client);
    const candidates = this.order();
    const target = candidates[attempt % candidates.length];
    const upstream = connect(target.port, '127.0.0.1');
    const refused = (error: NodeJS.ErrnoException) => {
      upstream.destroy();
      if (error.code !== 'ECONNREFUSED' || client.destroyed) return void client.destroy();
      this.stats.refused += 1;
      this.ready.set(target, false);
      if (Date.now() > deadline) {
        this.stats.unplaced += 1;
        return void client.destroy();
      }
      // Every target refused once: wait a little before going round again.
      const pause = (attempt + 1) % candidates.length === 0 ? 50 : 0;
      setTimeout(() => this.place(client, deadline, attempt + 1), pause);
    };
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.off('error', refused);
      this.stats.connections[target.name] = (this.stats.connections[target.name] ?? 0) + 1;
      this.track(upstream);
      // From here on a failure on either side is passed on as it is (a reset as a reset): no retry.
      upstream.on('error', () => client.resetAndDestroy());
      client.on('error', () => upstream.resetAndDestroy());
      upstream.on('close', () => client.end());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  private track(socket: Socket): void {
    if (this.sockets.has(socket)) return;
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private async probe(): Promise<void> {
    await Promise.all(this.targets.map(async (target) => this.ready.set(target, await readyzAnswers(target.port))));
    if (this.server) this.probeTimer = setTimeout(() => void this.probe(), this.options.probeIntervalMs ?? 100);
  }
}

/** One readiness probe on a connection of its own: true on 200 within a second. */
function readyzAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/readyz', agent: false, timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(false));
  });
}
