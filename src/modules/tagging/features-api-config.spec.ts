import { ConfigError, loadConfig } from '../../config/index.js';

describe('FEATURES_API_URL', () => {
  it('is optional: unset or empty sends nothing', () => {
    expect(loadConfig({}).featuresApiUrl).toBeUndefined();
    expect(loadConfig({ FEATURES_API_URL: '' }).featuresApiUrl).toBeUndefined();
  });

  it('takes an http or https URL as given', () => {
    expect(loadConfig({ FEATURES_API_URL: 'https://features.example/v1/interest?key=k' }).featuresApiUrl).toBe('https://features.example/v1/interest?key=k');
    expect(loadConfig({ FEATURES_API_URL: 'http://127.0.0.1:8080/hook' }).featuresApiUrl).toBe('http://127.0.0.1:8080/hook');
  });

  it.each(['features.example/hook', 'ftp://features.example/hook', 'javascript:alert(1)'])('refuses %s, naming the variable but not its value', (value) => {
    let error: unknown;
    try {
      loadConfig({ FEATURES_API_URL: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('FEATURES_API_URL');
    expect((error as ConfigError).message).not.toContain(value);
  });
});
