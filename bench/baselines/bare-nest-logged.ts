/**
 * Baseline 3 of `npm run bench`: bare Nest plus the service's request log (logged-app.ts). Its
 * ratio to bare Nest is the ceiling any logged route can reach on Express here.
 */
import { createLoggedApp } from './logged-app.js';

async function main(): Promise<void> {
  const app = await createLoggedApp();
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
}

void main();
