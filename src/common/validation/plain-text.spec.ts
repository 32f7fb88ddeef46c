import { isPlainText } from './plain-text.js';

describe('isPlainText', () => {
  it.each(['Ada', 'Zoë Ünïcødé', "O'Hara", 'José María', '山田 太郎', 'a@b.example', ''])('accepts %j', (text) => {
    expect(isPlainText(text)).toBe(true);
  });

  it.each([
    ['line feed', 'Ada\nBcc: x@evil.example'],
    ['carriage return', 'Ada\rX'],
    ['tab', 'Ada\tX'],
    ['NUL', 'Ada\u0000'],
    ['DEL', 'Ada\u007f'],
    ['C1 (NEL)', 'Ada\u0085X'],
    ['right-to-left override', 'Ada\u202egpj.exe'],
    ['left-to-right embedding', '\u202aAda'],
    ['first strong isolate', 'Ada\u2068x\u2069'],
  ])('refuses a %s', (_name, text) => {
    expect(isPlainText(text)).toBe(false);
  });

  it('accepts line feeds (and nothing else of the kind) in multi-line text', () => {
    expect(isPlainText('first line\nsecond line', true)).toBe(true);
    expect(isPlainText('first line\r\nsecond line', true)).toBe(false);
    expect(isPlainText('a\tb', true)).toBe(false);
    expect(isPlainText('a\u202eb', true)).toBe(false);
  });
});
