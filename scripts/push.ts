#!/usr/bin/env node
// The push command's entry (`npm run push -- …`, or `catalog-push` where the package is
// installed): see docs/ci.md. This file only starts it and sets the exit code.
import { main } from './push/main.ts';

process.exitCode = await main(process.argv.slice(2), process.env, (text) => process.stdout.write(text));
