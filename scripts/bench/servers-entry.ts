// Entry of the benchmark's servers process (forked by scripts/bench/main.ts). Node's on-disk
// compile cache saves a good part of start-up (the driver, Ajv, Express); it only covers
// modules loaded after this call, hence the dynamic import.
import module from 'node:module';

module.enableCompileCache();
await import('./servers.ts');
