/*
 * Repository.save() outside a transaction: TypeORM wraps it in a transaction of its own (BEGIN …
 * COMMIT through a query runner), which the conflict retry does not cover: installConflictRetry
 * (src/database/conflict-retry.ts) retries `dataSource.transaction(work)` as a whole and a lone
 * statement outside a transaction, nothing else. On a Galera cluster that COMMIT is where a
 * certification failure (1213) lands, so such a save() answers 503 (or crashes a boot) where a
 * retried write would have succeeded. Write with insert()/update()/delete() (one statement each)
 * or with `manager.save` inside `dataSource.transaction`.
 *
 * The selector catches `this.<repository>.save(…)` in src/ (an injected repository); a local
 * `manager.save` inside a transaction callback is not caught and is right.
 */

export const REPOSITORY_SAVE_MESSAGE =
  'No save() on an injected repository: it opens a transaction of its own that the conflict retry (src/database/conflict-retry.ts) does not cover; use insert()/update() (one statement) or manager.save inside dataSource.transaction (repository save).';

/** no-restricted-syntax entries. */
export const REPOSITORY_WRITE_SELECTORS = [
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='save'][callee.object.type='MemberExpression'][callee.object.object.type='ThisExpression']",
    message: REPOSITORY_SAVE_MESSAGE,
  },
];
