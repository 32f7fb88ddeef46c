import { type ArgumentsHost, Logger } from '@nestjs/common';
import { WpErrorFilter } from './wp-error.filter.js';

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
});
