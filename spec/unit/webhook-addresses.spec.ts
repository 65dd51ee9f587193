// Where a subscription's URL may lead: by default no loopback, private, link-local or otherwise
// special address, checked on the address the socket connects to (a name resolving to one is
// refused at connection time, so DNS cannot rebind around the check); WEBHOOK_ALLOW_PRIVATE=on
// allows them.
import { expect } from 'chai';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config.ts';
import { refusedAddress, urlProblem } from '../../server/events/address-guard.ts';
import { send } from '../../server/events/send.ts';

describe('webhook addresses', () => {
  it('refuses loopback, private, link-local, unspecified and mapped forms of them; allows public unicast', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(refusedAddress(address, false), address).to.be.a('string');
      expect(refusedAddress(address, true), address).to.equal(undefined);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34']) expect(refusedAddress(address, false), address).to.equal(undefined);
  });

  it('checks a URL: http(s) only, no credentials, an IP literal host by the same rule', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).to.equal(undefined);
    expect(urlProblem('ftp://hooks.example.com/x', false)).to.match(/http/);
    expect(urlProblem('https://user:pw@hooks.example.com/x', false)).to.match(/credentials/);
    expect(urlProblem('http://127.0.0.1:8080/x', false)).to.match(/loopback/);
    expect(urlProblem('http://[::1]/x', false)).to.match(/loopback/);
    expect(urlProblem('http://0x7f000001/x', false)).to.match(/loopback/);
    expect(urlProblem('http://127.0.0.1:8080/x', true)).to.equal(undefined);
    expect(urlProblem('not a url', false)).to.match(/absolute/);
  });

  it('refuses, when connecting, a name that resolves to loopback, and reaches it when allowed', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => { hits++; res.writeHead(204).end(); }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const delivery = { url: `http://localhost:${port}/hook`, secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`, eventId: 'evt_1', body: '{}' };
      const refused = await send(delivery, { timeoutMs: 2000, allowPrivate: false });
      expect(refused.ok).to.equal(false);
      expect(refused.error).to.match(/refused: localhost resolves to .* loopback/);
      expect(hits).to.equal(0);
      const allowed = await send(delivery, { timeoutMs: 2000, allowPrivate: true });
      expect(allowed).to.include({ ok: true, status: 204 });
      expect(hits).to.equal(1);
    } finally {
      server.close();
    }
  });

  it('reads WEBHOOK_* settings, private addresses off by default', () => {
    expect(loadConfig({}).webhooks.allowPrivate).to.equal(false);
    const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_BASE_MS: '10', WEBHOOK_TIMEOUT_MS: '500' }).webhooks;
    expect(config).to.include({ allowPrivate: true, retryBaseMs: 10, timeoutMs: 500 });
    expect(config.leaseMs).to.be.greaterThan(config.timeoutMs);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).to.throw(/WEBHOOK_ALLOW_PRIVATE must be one of on, off/);
  });
});
