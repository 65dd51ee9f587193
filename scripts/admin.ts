// Admin CLI entry point: `npm run --silent admin -- <group> <command> …` (see docs/admin-cli.md).
// The commands live in scripts/admin/; this file only starts them and sets the exit code.
import module from 'node:module';

// Every command is a fresh Node process, and most of its start-up is compiling the MongoDB
// driver and Ajv; Node's on-disk compile cache (in the OS temp dir) saves about a third of it.
// It only covers modules loaded after this call, hence the dynamic import.
module.enableCompileCache();
const { main } = await import('./admin/main.ts');

// `admin project list | head -1`: a reader that stops early is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await main(process.argv.slice(2));
// Everything was closed; should a stray handle (a driver timer, a child's pipe) still hold the
// loop, do not hang the caller's shell or script. unref: it never delays a normal exit.
setTimeout(() => process.exit(), 5_000).unref();
