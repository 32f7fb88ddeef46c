import { bootMessage, serviceUrls } from './bootstrap.js';

describe('the boot line', () => {
  it('names the API base, Swagger UI, the hosted page and the admin console under PUBLIC_BASE_URL, after where the service listens', () => {
    const urls = serviceUrls({ restRoot: 'wp-json', publicBaseUrl: 'https://pay.example.com' });
    expect(urls).toEqual({
      api: 'https://pay.example.com/wp-json/checkout/v1',
      swagger_ui: 'https://pay.example.com/docs',
      hosted_page: 'https://pay.example.com/pay/{form_id}',
      admin_console: 'https://pay.example.com/admin/',
    });
    expect(bootMessage({ host: '0.0.0.0', port: 3000 }, urls)).toBe(
      'Checkout API listening on 0.0.0.0:3000 | api https://pay.example.com/wp-json/checkout/v1 | swagger ui https://pay.example.com/docs | hosted page https://pay.example.com/pay/{form_id} | admin console https://pay.example.com/admin/',
    );
  });
});
