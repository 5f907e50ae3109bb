// @concord/contract: every rule that more than one of the server, the SDK, the CLI and the dashboard
// applies, written once. Isomorphic (zod and Web Crypto only: no Node.js built-in, no framework), so each
// of them imports it by name and none keeps a copy.
export * from './text.ts';
export * from './zod-issues.ts';
export * from './tasks.ts';
export * from './projects.ts';
export * from './csv.ts';
export * from './webhooks.ts';
export * from './events.ts';
export * from './sse.ts';
export * from './money.ts';
export * from './exports.ts';
export * from './errors.ts';
export * from './accounts.ts';
export * from './organisations.ts';
export * from './audit.ts';
