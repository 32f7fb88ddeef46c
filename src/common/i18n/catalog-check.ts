import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';

/** A message catalog: message id → ICU MessageFormat text. */
export type Catalog = Readonly<Record<string, string>>;

/**
 * Every problem between a source catalog and its translations, as readable lines (empty when all
 * is well): a key missing or extra, a message that does not parse, or a translation whose
 * placeholders (names and kinds: `{amount}`, `{n, plural, …}`, `<b>…</b>`) differ from the
 * source's. One check for the payer's catalogs and the console's, run by their specs.
 */
export function catalogProblems(catalogs: Readonly<Record<string, Catalog>>, sourceLocale: string): string[] {
  const source = catalogs[sourceLocale];
  if (!source) return [`no source catalog "${sourceLocale}"`];
  const problems: string[] = [];
  const sourceArguments = new Map<string, string>();
  for (const [key, text] of Object.entries(source)) {
    const found = argumentsOf(text);
    if ('error' in found) problems.push(`${sourceLocale}: "${key}" does not parse: ${found.error}`);
    else sourceArguments.set(key, found.placeholders);
  }
  for (const [locale, catalog] of Object.entries(catalogs)) {
    if (locale === sourceLocale) continue;
    for (const key of Object.keys(source)) {
      if (!(key in catalog)) problems.push(`${locale}: "${key}" is missing`);
    }
    for (const [key, text] of Object.entries(catalog)) {
      if (!(key in source)) {
        problems.push(`${locale}: "${key}" is not in the ${sourceLocale} catalog`);
        continue;
      }
      const found = argumentsOf(text);
      const expected = sourceArguments.get(key);
      if ('error' in found) problems.push(`${locale}: "${key}" does not parse: ${found.error}`);
      else if (expected !== undefined && found.placeholders !== expected) {
        problems.push(`${locale}: "${key}" has placeholders ${found.placeholders || '(none)'}, the ${sourceLocale} text ${expected || '(none)'}`);
      }
    }
  }
  return problems;
}

/** The sorted, de-duplicated `name:kind` list of a message's arguments and tags, or the parse error. */
function argumentsOf(text: string): { placeholders: string } | { error: string } {
  let elements: MessageFormatElement[];
  try {
    elements = parse(text);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const found = new Set<string>();
  collect(elements, found);
  return { placeholders: [...found].sort().join(', ') };
}

function collect(elements: readonly MessageFormatElement[], into: Set<string>): void {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        into.add(`${element.value}:text`);
        break;
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(`${element.value}:${TYPE[element.type]}`);
        break;
      case TYPE.plural:
      case TYPE.select:
        into.add(`${element.value}:${TYPE[element.type]}`);
        // Plural categories differ between languages (Japanese has only `other`, Polish has
        // `few` and `many`), so only the arguments inside the branches are compared.
        for (const option of Object.values(element.options)) collect(option.value, into);
        break;
      case TYPE.tag:
        into.add(`<${element.value}>:tag`);
        collect(element.children, into);
        break;
      default:
        break; // literal text and `#`
    }
  }
}
