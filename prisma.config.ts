// Prisma CLI configuration: run Prisma on its JavaScript engines so nothing is downloaded.
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

// Workaround for prisma/prisma#27403: the JS schema engine cannot deserialize PostgreSQL columns of
// type `name` (OID 19) or `char` (OID 18) and migrations fail with "Column type 'name' could not be
// deserialized". Read them as `text` (OID 25). Only the CLI process loads this file. Remove when fixed.
const TEXT_OID = 25;
const NAME_OID = 19;
const CHAR_OID = 18;
type FieldDescription = { dataTypeID: number };
const resultPrototype = pg.Result.prototype as unknown as { addFields(fields: FieldDescription[]): void };
const originalAddFields = resultPrototype.addFields;
resultPrototype.addFields = function addFields(this: unknown, fields: FieldDescription[]) {
  for (const field of fields) {
    if (field.dataTypeID === NAME_OID || field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
  }
  return originalAddFields.call(this, fields);
};

// The wasm schema engine leaves a 10-second timer behind after `migrate deploy` has finished, which
// keeps the CLI process alive for 10 s on every start-up. Unref long timers in this CLI process so
// it exits as soon as its work is done (a timer that still matters keeps running while work remains).
const LONG_TIMER_MS = 5_000;
const originalSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((handler: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
  const timer = originalSetTimeout(handler, delay, ...args);
  if ((delay ?? 0) >= LONG_TIMER_MS) timer.unref();
  return timer;
}) as typeof globalThis.setTimeout;

// Workaround for the adapter's executeScript, which splits a migration on every `;` and so cannot run a
// PL/pgSQL function body (dollar-quoted, full of semicolons). Send the script whole instead: PostgreSQL's
// simple query protocol runs several statements in one implicit transaction, so a migration now applies
// entirely or not at all.
type ScriptAdapter = { executeScript(script: string): Promise<void>; underlyingDriver(): pg.Pool; onError(error: unknown): never };
function wholeScriptAdapter(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const scripted = adapter as unknown as ScriptAdapter;
    scripted.executeScript = async (script: string) => {
      try {
        await scripted.underlyingDriver().query(script);
      } catch (error) {
        scripted.onError(error);
      }
    };
    return adapter;
  };
  return factory;
}

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // A short idle timeout lets the CLI exit as soon as it is done instead of waiting out the pool.
  adapter: async () => wholeScriptAdapter(new PrismaPg({ connectionString: process.env.DATABASE_URL, idleTimeoutMillis: 50 })),
});
