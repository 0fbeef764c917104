// Imported first by the bench: the local runtime runs as `npm start` runs it, the logger at WARN
// (local/start.ts). Powertools' injectLambdaContext re-applies the level the logger was built with
// on every warm invocation, so the level must be in the environment before the logger module loads.
// At INFO the front writes one JSON access line per request to its own stdout, which costs a third
// of Get Verification's local throughput on two cores (docs/explanation/performance.md).
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
