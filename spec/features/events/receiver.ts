// A real HTTP receiver for change events: it keeps every request it gets (headers and raw body),
// answers 503 while told to fail (all requests, or the next n), and says when it holds enough.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Received { headers: Record<string, string>; body: string; event: { id: string; type: string; subject: string; data: Record<string, any> }; answered: number }

export class Receiver {
  readonly received: Received[] = [];
  /** Requests still to refuse with 503; Infinity: down until told otherwise. */
  failing = 0;
  #server: http.Server | undefined;
  url = '';

  async start(port = 0): Promise<this> {
    this.#server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        const answered = this.failing > 0 ? 503 : 204;
        if (this.failing > 0) this.failing--;
        this.received.push({ headers: req.headers as Record<string, string>, body, event: JSON.parse(body), answered });
        res.writeHead(answered).end();
      });
    });
    this.#server.listen(port, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** What it accepted (answered 2xx). */
  get accepted(): Received[] {
    return this.received.filter(({ answered }) => answered < 300);
  }

  async until(done: (receiver: this) => boolean, timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!done(this)) {
      if (Date.now() > end) throw new Error(`receiver: timed out; got ${this.received.map(({ event, answered }) => `${event.type} ${event.subject} ${answered}`).join(', ')}`);
      await sleep(50);
    }
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server ? this.#server.close(resolve) : resolve(undefined));
  }
}
