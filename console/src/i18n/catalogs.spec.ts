import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { CONSOLE_LOCALES, catalogProblems } from '../../../src/common/i18n/index';
import de from './de.json';
import en from './en.json';

const CATALOGS = { en, de };

const SRC = join(__dirname, '..');

describe('console catalogs', () => {
  it('has every message in every language, with the same placeholders and tags, and valid ICU MessageFormat', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...CONSOLE_LOCALES].sort());
    expect(catalogProblems(CATALOGS, 'en')).toEqual([]);
  });

  it('reports a message missing in German and a placeholder that differs', () => {
    const broken = { en: { 'a.b': 'Paid {amount}', 'a.c': 'Hi' }, de: { 'a.b': 'Bezahlt {betrag}' } };
    expect(catalogProblems(broken, 'en').length).toBeGreaterThanOrEqual(2);
  });
});

/**
 * Words written into a screen's JSX instead of taken from the catalogs: JSX text with a letter
 * in it, and string attributes people read (aria-label, title, placeholder, alt, and the props of
 * the console's own components that are shown: label, help, confirmLabel...). Words in plain
 * strings outside JSX (a confirm text built in a function) are not found: review catches those. A small AST
 * scan with the TypeScript compiler (the lint has no React plugin to lend `react/jsx-no-literals`).
 */
const READ_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'label', 'help', 'submitLabel', 'confirmLabel', 'cancelLabel', 'empty', 'consequence', 'caption']);
/** Not words of a language: the product's name and the like. */
const ALLOWED_TEXT = new Set(['Checkout']);

export function untranslatedLiterals(file: string, source: string): string[] {
  const found: string[] = [];
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.text.replace(/\s+/g, ' ').trim();
      if (/\p{L}/u.test(text) && !ALLOWED_TEXT.has(text)) found.push(`${lineOf(tree, node)}: ${text}`);
    } else if (ts.isJsxAttribute(node) && node.initializer && ts.isStringLiteral(node.initializer)) {
      const name = node.name.getText(tree);
      if (READ_ATTRIBUTES.has(name) && /\p{L}/u.test(node.initializer.text)) found.push(`${lineOf(tree, node)}: ${name}="${node.initializer.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function lineOf(tree: ts.SourceFile, node: ts.Node): number {
  return tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
}

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? tsxFiles(join(dir, entry.name)) : entry.name.endsWith('.tsx') ? [join(dir, entry.name)] : [],
  );
}

describe('console screens take their words from the catalogs', () => {
  it('finds a JSX text and a read attribute left in English', () => {
    const found = untranslatedLiterals('x.tsx', 'const a = <p title="Hello">Paid {x} <b>—</b> Checkout</p>;');
    expect(found).toEqual(['1: title="Hello"', '1: Paid']);
  });

  it('leaves no JSX text or read attribute untranslated', () => {
    const left = tsxFiles(SRC)
      .map((file) => relative(SRC, file))
      .flatMap((file) => untranslatedLiterals(file, readFileSync(join(SRC, file), 'utf8')).map((literal) => `${file}:${literal}`));
    expect(left).toEqual([]);
  });
});
