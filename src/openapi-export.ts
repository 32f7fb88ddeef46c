import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { createApp } from './bootstrap.js';
import { buildOpenApiDocument, serializeOpenApiDocument } from './common/http/index.js';

/**
 * Writes the OpenAPI document (the one `/docs-json` serves) to the file named by the first argument,
 * without listening on a port: the app is built in-process, the document generated, the app closed.
 * `npm run client:generate` runs it (through clients/typescript/generate.mjs, which gives it a
 * throwaway in-memory database) before openapi-typescript.
 */
async function main(target: string | undefined): Promise<void> {
  if (!target) throw new Error('Usage: node dist/src/openapi-export.js <openapi.json>');
  const app = await createApp();
  await app.init();
  try {
    writeFileSync(target, serializeOpenApiDocument(buildOpenApiDocument(app)));
  } finally {
    await app.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
