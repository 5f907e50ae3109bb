// Where the CLI keeps what it remembers, and how it finds its credential.
//  - config.json (the login: base URL and buyer API key; the local webhook signing secret) in the user's
//    config directory: $XDG_CONFIG_HOME/concord, else ~/.config/concord on Linux,
//    ~/Library/Application Support/concord on macOS, %APPDATA%\concord on Windows. The directory is
//    made 0700 and the file 0600: it holds a secret.
//  - import checkpoints in the user's state directory: $XDG_STATE_HOME/concord/imports, else
//    ~/.local/state/concord/imports (macOS: ~/Library/Application Support/concord/imports, Windows:
//    %LOCALAPPDATA%\concord\imports).
// A credential comes from --api-key, else CONCORD_API_KEY, else the stored login; the base URL from
// --base-url, else CONCORD_URL, else the stored login, else http://localhost:3000.
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError, EXIT } from './errors.ts';

export const DEFAULT_BASE_URL = 'http://localhost:3000';
/** A buyer API key as the service makes them: `cnc_live_…` or `cnc_test_…`. */
export const API_KEY_PATTERN = /^cnc_(?:live|test)_[0-9A-Za-z]{16,}$/;

export interface StoredConfig {
  baseUrl?: string;
  apiKey?: string;
  /** Who the key belonged to when it was stored (shown by login; never trusted for anything). */
  buyer?: { id: string; email: string; companyName?: string };
  /** The `whsec_…` secret `webhooks listen` signs forwarded events with, kept so a receiver keeps working across runs. */
  listenSecret?: string;
  savedAt?: string;
}

function home(): string {
  return process.env.HOME || os.homedir();
}

export function configDir(): string {
  if (process.env.XDG_CONFIG_HOME) return path.join(process.env.XDG_CONFIG_HOME, 'concord');
  if (process.platform === 'win32') return path.join(process.env.APPDATA || path.join(home(), 'AppData', 'Roaming'), 'concord');
  if (process.platform === 'darwin') return path.join(home(), 'Library', 'Application Support', 'concord');
  return path.join(home(), '.config', 'concord');
}

export function stateDir(): string {
  if (process.env.XDG_STATE_HOME) return path.join(process.env.XDG_STATE_HOME, 'concord');
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || path.join(home(), 'AppData', 'Local'), 'concord');
  if (process.platform === 'darwin') return path.join(home(), 'Library', 'Application Support', 'concord');
  return path.join(home(), '.local', 'state', 'concord');
}

export const configFile = () => path.join(configDir(), 'config.json');

export async function readConfig(): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(configFile(), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as StoredConfig) : {};
  } catch {
    throw new CliError(EXIT.AUTH, 'CONFIG_INVALID', `${configFile()} is not JSON: run concord logout, then concord login`);
  }
}

/** Makes `dir` (and its parents) and gives it mode 0700. */
async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/**
 * Writes `content` to `file` atomically with `mode`: a temporary file created with that mode (never
 * readable by others, not even for a moment), then renamed over the old one.
 */
export async function writeFileAtomic(file: string, content: string, mode = 0o600): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', mode);
  try {
    await handle.writeFile(content);
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

export async function writeConfig(config: StoredConfig): Promise<string> {
  await privateDir(configDir());
  const file = configFile();
  await writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, 0o600);
  return file;
}

export async function deleteConfigFile(): Promise<boolean> {
  try {
    await rm(configFile());
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Makes the state directory's `sub` folder (0700: checkpoints name the files you import). */
export async function stateSubdir(sub: string): Promise<string> {
  const dir = path.join(stateDir(), sub);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
  quiet?: boolean;
}

export interface Connection {
  baseUrl: string;
  apiKey: string;
  /** Where the key came from, for messages. */
  source: 'flag' | 'environment' | 'login';
}

/** The base URL in use, with no credential needed (login, --dry-run). */
export async function resolveBaseUrl(options: GlobalOptions, stored?: StoredConfig): Promise<string> {
  const config = stored ?? (await readConfig());
  return normaliseBaseUrl(options.baseUrl ?? process.env.CONCORD_URL ?? config.baseUrl ?? DEFAULT_BASE_URL);
}

export function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(EXIT.USAGE, 'INVALID_BASE_URL', `Not a URL: ${value} (expected e.g. https://concord.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(EXIT.USAGE, 'INVALID_BASE_URL', `The base URL must be http(s): ${value}`);
  }
  return url.toString().replace(/\/+$/, '');
}

/** The credential and base URL of a command that calls the service, or exit 3 when there is none. */
export async function resolveConnection(options: GlobalOptions): Promise<Connection> {
  const config = await readConfig();
  const baseUrl = await resolveBaseUrl(options, config);
  const fromFlag = options.apiKey;
  const fromEnvironment = process.env.CONCORD_API_KEY;
  const apiKey = fromFlag ?? fromEnvironment ?? config.apiKey;
  if (!apiKey) {
    throw new CliError(EXIT.AUTH, 'NOT_LOGGED_IN', 'No API key: run concord login, or set CONCORD_API_KEY, or pass --api-key');
  }
  return { baseUrl, apiKey, source: fromFlag ? 'flag' : fromEnvironment ? 'environment' : 'login' };
}
