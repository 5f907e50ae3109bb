#!/usr/bin/env node
// Runs the Prisma CLI on its JavaScript engines (see prisma.config.ts). `prisma generate` reads no
// database, but the CLI still wants DATABASE_URL to be set: give it a placeholder when it is not.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const env = { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.DATABASE_URL ||= 'postgresql://unused@localhost:5432/unused';
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
