import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPrivateAddress, isPrivateAddress } from '../../src/lib/url-guard.ts';
import { sendWebhook } from '../../src/modules/webhooks/webhook-sender.ts';

// Every range the contract (§7) names, with an address inside it.
const refused: Array<[range: string, address: string]> = [
  ['IPv4 unspecified 0/8', '0.0.0.0'],
  ['IPv4 "this network" 0/8', '0.1.2.3'],
  ['IPv4 loopback', '127.0.0.1'],
  ['IPv4 loopback, other host', '127.255.0.9'],
  ['private 10/8', '10.1.2.3'],
  ['private 172.16/12', '172.16.0.1'],
  ['private 172.16/12, top', '172.31.255.254'],
  ['private 192.168/16', '192.168.1.1'],
  ['shared 100.64/10', '100.64.0.1'],
  ['shared 100.64/10, top', '100.127.255.254'],
  ['link-local 169.254/16', '169.254.1.1'],
  ['metadata (AWS, GCP, Azure)', '169.254.169.254'],
  ['IETF protocol assignments 192.0.0/24', '192.0.0.1'],
  ['documentation TEST-NET-1', '192.0.2.1'],
  ['documentation TEST-NET-2', '198.51.100.7'],
  ['documentation TEST-NET-3', '203.0.113.9'],
  ['benchmarking 198.18/15', '198.19.0.1'],
  ['multicast 224/4', '224.0.0.1'],
  ['reserved 240/4', '240.0.0.1'],
  ['broadcast', '255.255.255.255'],
  ['IPv6 unspecified', '::'],
  ['IPv6 loopback', '::1'],
  ['IPv6 link-local', 'fe80::1'],
  ['IPv6 site-local (deprecated)', 'fec0::1'],
  ['IPv6 unique-local', 'fc00::1'],
  ['IPv6 unique-local fd00::/8', 'fd12:3456::1'],
  ['metadata (AWS IPv6)', 'fd00:ec2::254'],
  ['IPv6 multicast', 'ff02::1'],
  ['IPv6 documentation', '2001:db8::1'],
  ['IPv6 benchmarking', '2001:2::1'],
  ['IPv6 discard', '100::1'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped, hex form', '::ffff:7f00:1'],
  ['IPv4-mapped public (still a translation)', '::ffff:8.8.8.8'],
  ['IPv4-compatible, dotted', '::127.0.0.1'],
  ['IPv4-compatible, hex', '::7f00:1'],
  ['IPv4-translated', '::ffff:0:7f00:1'],
  ['NAT64 64:ff9b::/96', '64:ff9b::7f00:1'],
  ['NAT64 64:ff9b::/96, dotted', '64:ff9b::10.0.0.1'],
  ['NAT64 local-use 64:ff9b:1::/48', '64:ff9b:1::a00:1'],
  ['6to4 2002::/16', '2002:7f00:1::'],
  ['6to4 of a public address', '2002:808:808::1'],
  ['Teredo 2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['outside 2000::/3', '4000::1'],
  ['not an address', 'not-an-ip'],
  ['empty', ''],
];

const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.0.3.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'];

describe('isPrivateAddress', () => {
  it.each(refused)('refuses %s (%s)', (_range, address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(allowed)('allows the public address %s', (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe('findPrivateAddress (config time)', () => {
  it('names a private IP literal in a URL, IPv6 in brackets included', async () => {
    expect(await findPrivateAddress('http://127.0.0.1:8080/hook')).toBe('127.0.0.1');
    expect(await findPrivateAddress('https://[64:ff9b::7f00:1]/hook')).toBe('64:ff9b::7f00:1');
    expect(await findPrivateAddress('https://[2002:7f00:1::]/hook')).toBe('2002:7f00:1::');
  });
  it('names the address a hostname resolves to when it is private', async () => {
    expect(await findPrivateAddress('http://localhost/hook')).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
  it('accepts a public IP literal', async () => {
    expect(await findPrivateAddress('https://8.8.8.8/hook')).toBeUndefined();
  });
});

describe('sendWebhook (send time)', () => {
  let server: http.Server;
  let port: number;
  let received = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      received += 1;
      // A redirect to wherever: never followed.
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const options = { timeoutMs: 2000, allowPrivate: false };

  it('refuses a hostname whose lookup gives a private address, checked on the address connected to', async () => {
    const outcome = await sendWebhook(`http://localhost:${port}/hook`, '{}', {}, options);
    expect(outcome).toMatchObject({ kind: 'retryable', statusCode: null });
    expect(outcome.kind === 'retryable' && outcome.error).toMatch(/refused private address/);
    expect(received).toBe(0);
  });

  it('refuses a private IP literal without connecting', async () => {
    const outcome = await sendWebhook(`http://127.0.0.1:${port}/hook`, '{}', {}, options);
    expect(outcome.kind === 'retryable' && outcome.error).toMatch(/refused private address 127\.0\.0\.1/);
    expect(received).toBe(0);
  });

  it('does not follow a redirect (allowed private target, for the test): the 302 is the outcome', async () => {
    const outcome = await sendWebhook(`http://localhost:${port}/hook`, '{}', {}, { ...options, allowPrivate: true });
    expect(outcome).toEqual({ kind: 'retryable', statusCode: 302, error: 'HTTP 302' });
    expect(received).toBe(1);
  });
});
