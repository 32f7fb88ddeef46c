import { escapeHtml } from './html.js';

describe('escapeHtml', () => {
  it('escapes markup and attribute breakers', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>\`=&</a>`)).toBe('&lt;a href&#61;&quot;x&quot; onclick&#61;&#39;y&#39;&gt;&#96;&#61;&amp;&lt;/a&gt;');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(5)).toBe('5');
  });
});
