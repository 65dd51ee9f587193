// Raw HTTP over a TCP socket, for what supertest cannot send or see: a head without its body,
// bytes Node's parser refuses, whether the server closed the connection.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/**
 * Writes `head` (and nothing more) and reads the answer. Resolves once a whole response is in
 * and the server closed the connection, or `settleMs` after the response when it stays open.
 */
export function rawRequest(port: number, head: string | Buffer, settleMs = 1000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no complete response head; got ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4), closed });
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      // A response arrived; wait a little to see whether the server closes the connection.
      if (!timer && received.includes('\r\n\r\n')) timer = setTimeout(() => finish(false), settleMs);
    });
    socket.on('end', () => finish(true));
    socket.on('error', (error) => (received.length > 0 ? finish(true) : reject(error)));
    socket.write(head);
  });
}
