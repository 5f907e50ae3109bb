// Applies pending migrations with the Prisma CLI itself (`prisma migrate deploy`), so the server, the
// tests and an operator running the CLI by hand share one migration history.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js');

export async function applyMigrations(databaseUrl: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [prismaCli, 'migrate', 'deploy'],
      {
        cwd: projectRoot,
        env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`prisma migrate deploy failed: ${stderr || stdout || error.message}`));
        else resolve();
      },
    );
  });
}
