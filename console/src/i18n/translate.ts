/** The values a message takes (`{count}`, `{amount}`, a select's key). */
export type MessageValues = Record<string, string | number | Date | null | undefined>;

/**
 * What `useT()` gives: pure screen logic (the payment log's sentences, a refund amount's errors)
 * takes it as an argument, so it stays testable without React. Its own module, without React's
 * types: the service's type check (tsconfig.json) reaches the form builder's logic through
 * test/console, and React's DOM stand-ins must not enter a program that has no DOM library.
 */
export type Translate = (id: string, values?: MessageValues) => string;
