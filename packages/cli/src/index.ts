// @concord/cli as a library: the program (`concord` runs main on its arguments), its exit codes and its
// version, for a tool that embeds the commands or runs them in-process.
export { buildProgram, main } from './main.ts';
export { CliError, EXIT } from './errors.ts';
export { VERSION } from './version.ts';
