import { csvCell, csvLine } from './csv.js';

describe('csvCell (RFC 4180 quoting, OWASP formula neutralisation)', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rinside', '"cr\rinside"'],
    ['=1+1', "'=1+1"],
    ['+33 1 23', "'+33 1 23"],
    ['-2', "'-2"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tindent', "'\tindent"],
    ['\rstart', '"\'\rstart"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['=cmd|\' /C calc\'!A0,x', '"\'=cmd|\' /C calc\'!A0,x"'],
    ['a=b', 'a=b'],
    [' =not first', ' =not first'],
    ["O'Hara", "O'Hara"],
    ['Ünïcødé', 'Ünïcødé'],
    // Every piece a spreadsheet splitting on `;`, tabs or line breaks would make a cell of.
    ['x;=1+1;y', "x;'=1+1;y"],
    ['a;+1;-2;@x', "a;'+1;'-2;'@x"],
    ['name\t=1+1', "name\t'=1+1"],
    ['line one\n=2+2', '"line one\n\'=2+2"'],
    ['line one\r\n@SUM(A1)', '"line one\r\n\'@SUM(A1)"'],
    ['a;b; c', 'a;b; c'],
    ['x;;=1', "x;;'=1"],
  ])('%j -> %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('writes every text as the two passes (neutralise each piece, then quote) write it, whatever the plain text shortcut takes', () => {
    const slow = (text: string) => {
      const neutral = text.replace(/(^|[;\t\r\n])(?=[=+\-@\t\r])/g, "$1'");
      return /[",\r\n]/.test(neutral) ? `"${neutral.replace(/"/g, '""')}"` : neutral;
    };
    // Every string of up to 3 characters over the characters either pass looks at, and a letter.
    const alphabet = ['=', '+', '-', '@', '\t', '\r', '\n', ';', '"', ',', "'", ' ', 'a'];
    let texts = [''];
    for (let length = 1; length <= 3; length++) texts = [...texts, ...texts.filter((text) => text.length === length - 1).flatMap((text) => alphabet.map((char) => text + char))];
    expect(texts.length).toBe(1 + 13 + 13 ** 2 + 13 ** 3);
    for (const text of texts) expect([text, csvCell(text)]).toEqual([text, slow(text)]);
  });

  it('writes numbers (negative ones too: they are ours, not text) and booleans as they are, null and undefined empty', () => {
    expect(csvCell(1999)).toBe('1999');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(() => csvCell(Number.NaN)).toThrow(TypeError);
  });
});

describe('csvLine', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvLine(['id', 'name', 1, null, 'x,y'])).toBe('id,name,1,,"x,y"\r\n');
  });
});
