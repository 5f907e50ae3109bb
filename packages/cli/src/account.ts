// concord login, logout, balance and top-up.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { BuyerClient, type Deposit } from '@concord/sdk';
import { API_KEY_PATTERN, configFile, deleteConfigFile, readConfig, resolveBaseUrl, resolveConnection, writeConfig, type GlobalOptions } from './config.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import { formatCents, type Output } from './output.ts';

export function buyerClient(connection: { baseUrl: string; apiKey: string }, userAgent: string): BuyerClient {
  return new BuyerClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, headers: { 'user-agent': userAgent } });
}

/** The key typed at a hidden prompt on a terminal, or the first line of stdin otherwise. */
async function readKey(output: Output): Promise<string> {
  if (process.stdin.isTTY) {
    process.stderr.write("Buyer API key (cnc_…, from the dashboard's API keys page): ");
    const muted = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const rl = readline.createInterface({ input: process.stdin, output: muted, terminal: true });
    try {
      return await new Promise<string>((resolve) => rl.question('', resolve));
    } finally {
      rl.close();
      process.stderr.write('\n');
    }
  }
  output.note('Reading the API key from stdin…');
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

export async function login(options: GlobalOptions, output: Output, userAgent: string): Promise<void> {
  const stored = await readConfig();
  const baseUrl = await resolveBaseUrl(options, stored);
  const apiKey = (options.apiKey ?? process.env.CONCORD_API_KEY ?? (await readKey(output))).trim();
  if (!apiKey) throw usageError('No API key given (--api-key, CONCORD_API_KEY, or type it when asked)', 'API_KEY_MISSING');
  if (!API_KEY_PATTERN.test(apiKey)) {
    throw usageError("That is not a buyer API key: they look like cnc_live_… or cnc_test_… (create one on the dashboard's API keys page)", 'API_KEY_MALFORMED');
  }
  const buyer = await buyerClient({ baseUrl, apiKey }, userAgent).auth.me();
  const file = await writeConfig({
    ...stored,
    baseUrl,
    apiKey,
    buyer: { id: buyer.id, email: buyer.email, companyName: buyer.companyName },
    savedAt: new Date().toISOString(),
  });
  const keyPrefix = apiKey.slice(0, 'cnc_test_'.length + 5);
  output.result(
    { loggedIn: true, baseUrl, buyer: { id: buyer.id, email: buyer.email, companyName: buyer.companyName }, keyPrefix, configFile: file },
    `Logged in to ${baseUrl} as ${buyer.email} (${buyer.companyName}) with ${keyPrefix}…; saved to ${file}`,
  );
}

export async function logout(output: Output): Promise<void> {
  const stored = await readConfig();
  const wasLoggedIn = stored.apiKey !== undefined;
  const { apiKey: _apiKey, baseUrl: _baseUrl, buyer: _buyer, savedAt: _savedAt, ...rest } = stored;
  // What is left (the local webhook signing secret) stays; an empty file does not.
  if (Object.keys(rest).length > 0) await writeConfig(rest);
  else await deleteConfigFile();
  output.result(
    { loggedOut: wasLoggedIn, configFile: configFile() },
    wasLoggedIn
      ? `Logged out: the API key is no longer stored in ${configFile()}. It still works until you revoke it on the dashboard's API keys page.`
      : 'Not logged in: nothing to forget.',
  );
}

export async function balance(options: GlobalOptions, output: Output, userAgent: string): Promise<void> {
  const connection = await resolveConnection(options);
  const money = await buyerClient(connection, userAgent).billing.balance();
  output.result(
    money,
    `Balance ${formatCents(money.creditBalance)} · reserved by open tasks ${formatCents(money.reservedCents)} · available ${formatCents(money.availableCents)}`,
  );
}

/** "50", "49.99" or "$1,000.50" dollars as cents. */
export function parseDollars(text: string): number {
  const cleaned = text.trim().replace(/^\$/, '').replaceAll(',', '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) throw usageError(`AMOUNT is in dollars, like 50 or 49.99 (not "${text}")`, 'INVALID_AMOUNT');
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Opens `url` in the default browser; resolves whether a browser opener could be started. */
export function openInBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

export interface TopUpOptions extends GlobalOptions {
  method: string;
  open?: boolean;
  wait?: boolean;
  waitTimeout: number;
}

export async function topUp(amount: string, options: TopUpOptions, output: Output, userAgent: string): Promise<void> {
  const amountCents = parseDollars(amount);
  if (options.method !== 'card' && options.method !== 'mobile_money') throw usageError('--method is card or mobile_money', 'INVALID_METHOD');
  const connection = await resolveConnection(options);
  const client = buyerClient(connection, userAgent);
  const deposit = await client.deposits.create({ amountCents, method: options.method });
  // Opened on a terminal unless --no-open; --open forces it (a script that wants the browser).
  const shouldOpen = options.open ?? (process.stdout.isTTY === true && process.stdin.isTTY === true && !output.json);
  const opened = shouldOpen ? await openInBrowser(deposit.checkoutUrl) : false;
  const bonus = deposit.bonusCents > 0 ? ` (+ ${formatCents(deposit.bonusCents)} bonus)` : '';
  output.say(`Pay ${formatCents(deposit.amountCents)}${bonus} at:\n${deposit.checkoutUrl}`);
  if (shouldOpen && !opened) output.note('(No browser opener found: open the URL yourself.)');
  else if (opened) output.note('(Opened in your browser.)');
  if (!options.wait) {
    output.result({ deposit, opened }, '');
    return;
  }
  output.note('Waiting for the payment to be confirmed (Ctrl-C to stop waiting; the deposit stays open)…');
  const final = await waitForDeposit(client, deposit, options.waitTimeout);
  if (final.status !== 'SUCCEEDED') {
    throw new CliError(EXIT.API_ERROR, `DEPOSIT_${final.status}`, `The deposit ended ${final.status}: nothing was credited`, { deposit: final });
  }
  const money = await client.billing.balance();
  output.result(
    { deposit: final, opened, balance: money },
    `Paid: ${formatCents(final.amountCents + final.bonusCents)} credited. Available now: ${formatCents(money.availableCents)}.`,
  );
}

async function waitForDeposit(client: BuyerClient, deposit: Deposit, timeoutSeconds: number): Promise<Deposit> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let current = deposit;
  while (current.status === 'PENDING') {
    if (Date.now() > deadline) {
      throw new CliError(EXIT.API_ERROR, 'DEPOSIT_PENDING', `The deposit is still PENDING after ${timeoutSeconds} s; pay at ${deposit.checkoutUrl}`, {
        deposit: current,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    current = await client.deposits.get(deposit.id);
  }
  return current;
}
