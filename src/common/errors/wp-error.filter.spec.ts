import { type ArgumentsHost, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { isDatabaseDown, WpErrorFilter } from './wp-error.filter.js';

function hostFor(originalUrl: string) {
  const response = { headersSent: false, setHeader: jest.fn(), status: jest.fn(), json: jest.fn() };
  response.status.mockReturnValue(response);
  const request = { method: 'GET', originalUrl };
  const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }) } as unknown as ArgumentsHost;
  return { host, response };
}

describe('WpErrorFilter', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers an unknown error 500 with an error id and logs the path without the query string (it can carry credentials)', () => {
    const logged: unknown[] = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    const { host, response } = hostFor('/wp-json/checkout/v1/payment-gateway/connect-callback?state=s.t&user_id=acct_1&public_key=pk_live_1&secret_key=sk_live_very_secret_4242&code=ac_code');

    new WpErrorFilter().catch(new Error('boom'), host);

    expect(response.status).toHaveBeenCalledWith(500);
    expect(response.json).toHaveBeenCalledWith(expect.objectContaining({ code: 'checkout_internal_error' }));
    const text = JSON.stringify(logged);
    expect(text).toContain('/wp-json/checkout/v1/payment-gateway/connect-callback');
    expect(text).not.toContain('sk_live_very_secret_4242');
    expect(text).not.toContain('ac_code');
  });

  it.each([
    ['1047: a Galera node outside the primary component', { errno: 1047, code: 'ER_UNKNOWN_COM_ERROR' }],
    ['1180: a commit the cluster lost', { errno: 1180, code: 'ER_ERROR_DURING_COMMIT' }],
    ['2013: connection lost during a query', { errno: 2013 }],
    ['1213: a conflict still lost after the retries', { errno: 1213, code: 'ER_LOCK_DEADLOCK' }],
    ['a lost connection', { code: 'PROTOCOL_CONNECTION_LOST' }],
    ['a refused connection (the node is down)', { code: 'ECONNREFUSED' }],
  ])('answers %s 503 checkout_unavailable with Retry-After, never 500', (_why, driverError) => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, response } = hostFor('/wp-json/checkout/v1/payment/status');
    const exception = new QueryFailedError('SELECT 1', [], Object.assign(new Error('driver'), driverError));
    expect(isDatabaseDown(exception)).toBe(true);

    new WpErrorFilter().catch(exception, host);

    expect(response.status).toHaveBeenCalledWith(503);
    expect(response.json).toHaveBeenCalledWith(expect.objectContaining({ code: 'checkout_unavailable' }));
    expect(response.setHeader).toHaveBeenCalledWith('Retry-After', '2');
  });

  it('keeps other database errors (a duplicate key) as 500', () => {
    expect(isDatabaseDown(new QueryFailedError('INSERT', [], Object.assign(new Error('dup'), { errno: 1062, code: 'ER_DUP_ENTRY' })))).toBe(false);
  });
});
