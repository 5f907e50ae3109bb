// The package's version, for --version and the User-Agent: a constant rather than a read of package.json,
// which the CommonJS build could not locate (no import.meta); test/unit/cli-docs.test.ts holds it equal
// to package.json's.
export const VERSION = '0.1.0';
