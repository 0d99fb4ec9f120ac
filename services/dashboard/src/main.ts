// Telemetry first: modules imported after it are instrumented, modules imported before are not.
const { telemetry } = await import('./instrument.js');
const { bootstrap } = await import('./bootstrap.js');

await bootstrap({ telemetry });
