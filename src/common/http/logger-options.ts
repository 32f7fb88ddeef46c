import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../../config/index.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Structured JSON logs (pino) with one request id per request: the caller's `X-Request-Id` when it
 * looks sane, a new UUID otherwise; echoed in the response. Credentials and signatures are redacted.
 */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (request: IncomingMessage, response) => {
        const incoming = request.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        response.setHeader('X-Request-Id', id);
        return id;
      },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["gateway-a-signature"]',
          'req.headers["stripe-signature"]',
          'req.headers["checkout-signature"]',
          'req.headers["paypal-transmission-sig"]',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
      customProps: () => ({ service: 'checkout-api' }),
      serializers: {
        // The query string can carry OAuth codes and credentials (connect callback): log the path only.
        req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: req.id,
          method: req.method,
          path: req.url.split('?')[0],
          headers: req.headers,
        }),
      },
    },
  };
}
