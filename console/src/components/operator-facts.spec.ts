import { englishT, germanT } from '../i18n/english';
import { isEnvironmentSetting, operatorAsk } from './operator-facts';

describe('operator facts', () => {
  it('says what to ask for about the mail server and the embedding sites, naming the setting only in the detail', () => {
    expect(operatorAsk('SMTP_URL', englishT).ask).not.toContain('SMTP_URL');
    expect(operatorAsk('SMTP_URL', englishT).detail).toContain('SMTP_URL');
    expect(operatorAsk('EMBED_ORIGINS', englishT).ask).toMatch(/your site/);
    expect(operatorAsk('EMBED_ORIGINS', englishT).detail).toContain('EMBED_ORIGINS');
  });

  it('names a setting without words of its own as it is', () => {
    expect(operatorAsk('CHECKOUT_PLAN', englishT).detail).toContain('CHECKOUT_PLAN');
    expect(operatorAsk('toString', englishT).detail).toContain('toString');
  });

  it('speaks German with the German catalog, the setting still named as it is', () => {
    const smtp = operatorAsk('SMTP_URL', germanT);
    expect(smtp.ask).toMatch(/Mailserver/);
    expect(smtp.detail).toContain('SMTP_URL');
    expect(operatorAsk('CHECKOUT_PLAN', germanT).detail).toContain('CHECKOUT_PLAN');
  });

  it('tells an environment variable from a console setting', () => {
    expect(isEnvironmentSetting('SMTP_URL')).toBe(true);
    expect(isEnvironmentSetting('payment_gateway')).toBe(false);
    expect(isEnvironmentSetting(null)).toBe(false);
  });
});
