#!/usr/bin/env node
// The `concord` executable (package.json "bin"): runs the CLI on the process's arguments and exits with
// its code once stdout has taken everything (a pipe may be asynchronous), whatever sockets are still open.
import { EXIT } from './errors.ts';
import { main } from './main.ts';

main(process.argv.slice(2)).then(
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT.API_ERROR);
  },
);
