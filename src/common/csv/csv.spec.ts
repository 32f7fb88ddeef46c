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
