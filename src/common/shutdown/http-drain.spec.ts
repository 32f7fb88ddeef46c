import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RawConnection } from '../../../test/support/raw-http.js';
import { HttpDrain } from './http-drain.js';
import { ShutdownState } from './shutdown-state.js';

describe('HttpDrain', () => {
  let server: Server;
  let drain: HttpDrain;
  let port: number;
  /** Answers to /hold (not begun) and /stream (begun) wait for the test; anything else is answered at once. */
  const pending: ServerResponse[] = [];

  beforeEach(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/hold') return void pending.push(res);
      if (req.url === '/stream') {
        res.writeHead(200, { 'Content-Length': '4' });
        res.write('ab');
        return void pending.push(res);
      }
      res.writeHead(200, { 'Content-Length': '2' }).end('ok');
    });
    drain = new HttpDrain(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    pending.length = 0;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('counts open connections and requests in flight; once draining, answers carry Connection: close and their connections end', async () => {
    const a = await RawConnection.open(port);
    const b = await RawConnection.open(port);
    a.request('GET', '/');
    expect((await a.answer()).headers.connection).toBe('keep-alive');
    b.request('GET', '/hold');
    await waitFor(() => pending.length === 1);
    expect(drain.openConnections).toBe(2);
    expect(drain.requestsInFlight).toBe(1);

    drain.startDraining();
    pending[0].writeHead(200, { 'Content-Length': '2' }).end('ok'); // begun before the drain, answered after
    expect((await b.answer()).headers.connection).toBe('close');
    a.request('GET', '/');
    expect((await a.answer()).headers.connection).toBe('close');
    await Promise.all([a.closed, b.closed]);
    expect([a.closedBy, b.closedBy]).toEqual(['end', 'end']);
    expect(drain.counts).toEqual({ connectionsClosed: 2, requestsAnswered: 2 });
  });

  it('ends a connection whose keep-alive answer was already under way when the drain began, once that answer is done', async () => {
    const a = await RawConnection.open(port);
    a.request('GET', '/stream');
    await waitFor(() => pending.length === 1);
    drain.startDraining();
    pending[0].end('cd');
    const answer = await a.answer();
    expect(answer).toMatchObject({ status: 200, body: 'abcd', headers: { connection: 'keep-alive' } });
    await a.closed;
    expect(a.closedBy).toBe('end');
  });

  it('close(): refuses new connections, closes idle ones at once, waits for answers in flight', async () => {
    const idle = await RawConnection.open(port);
    idle.request('GET', '/');
    await idle.answer();
    const busy = await RawConnection.open(port);
    busy.request('GET', '/hold');
    await waitFor(() => pending.length === 1);

    const closing = drain.close(5000);
    await idle.closed;
    expect(idle.closedBy).toBe('end');
    await expect(RawConnection.open(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    pending[0].writeHead(200, { 'Content-Length': '2' }).end('ok');
    expect(await busy.answer()).toMatchObject({ status: 200, headers: { connection: 'close' } });
    expect(await closing).toEqual({ forced: 0 });
    expect(drain.openConnections).toBe(0);
  });

  it('close(): a request still in flight after the wait is closed forcibly and counted', async () => {
    const hung = await RawConnection.open(port);
    hung.request('GET', '/hold');
    await waitFor(() => pending.length === 1);
    expect(await drain.close(100)).toEqual({ forced: 1 });
    await hung.closed;
    await expect(hung.answer()).rejects.toThrow(/closed/);
    expect(drain.openConnections).toBe(0);
  });
});

describe('ShutdownState', () => {
  it('runs each stop once when the shutdown begins, at once when registered later, and a failing stop does not keep the others from running', () => {
    const state = new ShutdownState();
    const calls: string[] = [];
    state.onShutdown(() => calls.push('first'));
    state.onShutdown(() => {
      throw new Error('boom');
    });
    state.onShutdown(() => calls.push('third'));
    expect(state.shuttingDown).toBe(false);
    expect(calls).toEqual([]);
    state.begin();
    state.begin();
    expect(state.shuttingDown).toBe(true);
    expect(calls).toEqual(['first', 'third']);
    state.onShutdown(() => calls.push('late'));
    expect(calls).toEqual(['first', 'third', 'late']);
  });
});

async function waitFor(done: () => boolean, timeoutMs = 5000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
