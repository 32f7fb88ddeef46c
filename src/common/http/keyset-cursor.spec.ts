import { InvalidParamsError } from '../errors/index.js';
import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor.js';

describe('keyset cursor', () => {
  it('round-trips a position', () => {
    const position = { createdAt: new Date('2026-11-29T01:02:03.456Z'), id: 42 };
    const cursor = encodeKeysetCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeysetCursor(cursor)).toEqual(position);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/'],
    ['no id', Buffer.from('1767225600000').toString('base64url')],
    ['id 0', Buffer.from('1767225600000.0').toString('base64url')],
    ['id past INT', Buffer.from('1.2147483648').toString('base64url')],
    ['time past Date', Buffer.from('8640000000000001.1').toString('base64url')],
    ['leading zero', Buffer.from('01.1').toString('base64url')],
    ['trailing text', Buffer.from('1.1 ').toString('base64url')],
    ['JSON', Buffer.from('{"id":1}').toString('base64url')],
    ['too long', 'A'.repeat(65)],
  ])('refuses %s with InvalidParamsError naming the parameter', (_name, text) => {
    let thrown: unknown;
    try {
      decodeKeysetCursor(text, 'after');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidParamsError);
    expect(Object.keys((thrown as InvalidParamsError).data.params as object)).toEqual(['after']);
  });

  it('refuses a non-canonical encoding of a valid position (one position, one cursor)', () => {
    const cursor = encodeKeysetCursor({ createdAt: new Date(1), id: 1 });
    expect(() => decodeKeysetCursor(`${cursor}A`)).toThrow(InvalidParamsError);
  });
});
