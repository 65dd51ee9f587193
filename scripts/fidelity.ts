// `npm run fidelity`: the OpenAPI round trip on real public descriptions; see scripts/fidelity/.
const { main } = await import('./fidelity/main.ts');
process.exitCode = await main(process.argv.slice(2));
setTimeout(() => process.exit(), 5_000).unref();
