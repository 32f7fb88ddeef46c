import { isEnvironmentSetting, operatorAsk } from './operator-facts';

describe('operator facts', () => {
  it('says what to ask for about the mail server and the embedding sites, naming the setting only in the detail', () => {
    expect(operatorAsk('SMTP_URL').ask).not.toContain('SMTP_URL');
    expect(operatorAsk('SMTP_URL').detail).toContain('SMTP_URL');
    expect(operatorAsk('EMBED_ORIGINS').ask).toMatch(/your site/);
    expect(operatorAsk('EMBED_ORIGINS').detail).toContain('EMBED_ORIGINS');
  });

  it('names a setting without words of its own as it is', () => {
    expect(operatorAsk('CHECKOUT_PLAN').detail).toContain('CHECKOUT_PLAN');
  });

  it('tells an environment variable from a console setting', () => {
    expect(isEnvironmentSetting('SMTP_URL')).toBe(true);
    expect(isEnvironmentSetting('payment_gateway')).toBe(false);
    expect(isEnvironmentSetting(null)).toBe(false);
  });
});
