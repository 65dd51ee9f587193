// What the service process and `npm start`'s supervisor (start.ts) say to each other over the
// IPC channel the supervisor opens: the service says when it listens and which embedded database
// it runs, and stops when the supervisor is gone. Run on its own (tests, the container), the
// service has no channel and none of this happens.

/** The service's word once it listens. */
export interface Listening {
  kind: 'listening';
  /** DATA_DIR of the embedded database it started; undefined with MONGODB_URI. */
  dataDir: string | undefined;
}

export function isListening(message: unknown): message is Listening {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'listening';
}

/**
 * Tells the supervisor, if there is one, that the service listens; settles once the message is
 * on its way, so that whoever reads the log line said after it may rely on the supervisor knowing.
 */
export async function tellListening(dataDir: string | undefined): Promise<void> {
  const message: Listening = { kind: 'listening', dataDir };
  await new Promise<void>((resolve) => {
    if (!process.send?.(message, undefined, {}, () => resolve())) resolve();
  });
}

/** Calls `stop` when the supervisor goes (its end closes the channel), whatever ended it. */
export function onSupervisorGone(stop: () => void): void {
  if (!process.channel) return;
  process.once('disconnect', stop);
  // The channel alone must not keep the service alive.
  process.channel.unref();
}
