/**
 * Baseline 1 of `npm run bench`: a bare `node:http` server answering every request with a small
 * JSON body. The ceiling of what Node can do on this machine in the same run.
 */
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 0);
const body = JSON.stringify({ status: 'ok' });

createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}).listen(port, '127.0.0.1');
