import { containsPattern, LIKE_ESCAPE } from './like-pattern.js';

describe('containsPattern', () => {
  it.each([
    ['ada', '%ada%'],
    ['50%', '%50!%%'],
    ['a_b', '%a!_b%'],
    ['wow!', '%wow!!%'],
    ["o'hara", "%o'hara%"],
    ['\\', '%\\%'],
    ['', '%%'],
  ])('%j -> %j', (text, pattern) => {
    expect(containsPattern(text)).toBe(pattern);
  });

  it('escapes with the character it declares', () => {
    expect(LIKE_ESCAPE).toBe('!');
  });
});
