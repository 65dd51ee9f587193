// The loopback address the servers listen on, and probing a port there: TCP, then the MongoDB protocol.
import * as net from 'node:net';
import { MongoClient } from 'mongodb';

export const LOOPBACK = '127.0.0.1';

export function acceptsTcp(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: LOOPBACK, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}

/** ping, then buildInfo: FerretDB reports `ferretdbVersion`. */
export async function serverKind(uri: string, timeoutMs: number): Promise<'mongodb' | 'ferretdb'> {
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    directConnection: true,
  });
  try {
    const admin = client.db('admin');
    await admin.command({ ping: 1 });
    const info = await admin.command({ buildInfo: 1 });
    return 'ferretdbVersion' in info ? 'ferretdb' : 'mongodb';
  } finally {
    await client.close().catch(() => {});
  }
}

export const loopbackUri = (port: number) => `mongodb://${LOOPBACK}:${port}/`;
