/** The slice of better-sqlite3 (no bundled types) that backup.ts and the size bench's seed use; TypeORM drives the rest. */
declare module 'better-sqlite3' {
  interface Statement {
    run(...parameters: unknown[]): unknown;
    all(...parameters: unknown[]): unknown[];
  }
  interface Database {
    backup(destination: string): Promise<unknown>;
    prepare(sql: string): Statement;
    exec(sql: string): void;
    pragma(text: string): unknown;
    close(): void;
  }
  const Database: new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => Database;
  export default Database;
}
