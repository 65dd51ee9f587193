// `npm run bench [-- options]`: the service's request path against bare handlers, side by side
// in one run, reported as ratios. The work is in scripts/bench/; see docs/benchmark.md.
import module from 'node:module';

// Compile cache for what follows (the driver, Ajv, autocannon): it only covers modules loaded
// after this call, hence the dynamic import.
module.enableCompileCache();
const { main } = await import('./bench/main.ts');

process.exitCode = await main(process.argv.slice(2));
// Everything was stopped; should a stray handle (a driver timer, a child's pipe) still hold the
// loop, do not hang the caller. unref: it never delays a normal exit.
setTimeout(() => process.exit(), 5_000).unref();
