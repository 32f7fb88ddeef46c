/** The slice of better-sqlite3 (no bundled types) that backup.ts uses; TypeORM drives the rest. */
declare module 'better-sqlite3' {
  interface Database {
    backup(destination: string): Promise<unknown>;
    close(): void;
  }
  const Database: new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => Database;
  export default Database;
}
