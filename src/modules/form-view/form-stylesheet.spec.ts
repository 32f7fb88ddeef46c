import { accentStylesheet, onAccent } from './form-stylesheet.js';

describe('accent stylesheets', () => {
  it('puts white text on accents it reads on (4.5:1) and dark text on the others', () => {
    expect(onAccent('2563eb')).toBe('ffffff'); // blue: 5.2:1 with white
    expect(onAccent('16a34a')).toBe('111827'); // green: white would be 3.3:1
    expect(onAccent('f59e0b')).toBe('111827'); // amber
    expect(onAccent('000000')).toBe('ffffff');
    expect(onAccent('ffffff')).toBe('111827');
  });

  it('answers one file per colour, nothing for other names', () => {
    expect(accentStylesheet('7c3aed.css')?.source).toBe(':root{--accent:#7c3aed;--on-accent:#ffffff}\n');
    expect(accentStylesheet('7C3AED.css')).toBeNull();
    expect(accentStylesheet('7c3aed.js')).toBeNull();
  });
});
