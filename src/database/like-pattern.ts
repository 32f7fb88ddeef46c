/**
 * The escape character of the LIKE patterns this service builds. Not a backslash: a backslash
 * means something else inside MySQL string literals than inside SQLite's, `!` means nothing in both.
 */
export const LIKE_ESCAPE = '!';

/**
 * A LIKE pattern that matches values containing `text` literally: its `%`, `_` and the escape
 * character are escaped, so a search for `50%_off` looks for exactly that. Use it as a bound
 * parameter with `LIKE :pattern ESCAPE '!'`, never spliced into the SQL text.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (character) => `${LIKE_ESCAPE}${character}`)}%`;
}

/** A LIKE pattern that matches values starting with `text` literally (its wildcards escaped, as containsPattern's). */
export function prefixPattern(text: string): string {
  return `${text.replace(/[!%_]/g, (character) => `${LIKE_ESCAPE}${character}`)}%`;
}
