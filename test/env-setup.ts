// Every test file starts as the local runtime does: the logger at WARN unless a test asks for more.
// Powertools' injectLambdaContext re-applies the level the logger was built with on every warm
// invocation, so the level must be in the environment before the logger module is first imported.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
