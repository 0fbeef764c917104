import { checkEngine } from './engine';

/** npm start: the whole service on loopback with nothing else installed (Java for DynamoDB Local aside). */
async function main(): Promise<void> {
  checkEngine();
  // Before the service's modules load: the logger keeps the level it was built with (Powertools'
  // injectLambdaContext re-applies it on every warm invocation), as a Lambda reads its environment.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const { LOCAL_TABLE, startRuntime } = await import('./runtime');
  const { issueLocalReviewerToken } = await import('./console-reviewer');
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const dataDir = process.env.DATA_DIR ?? '.data';
  const apiToken = process.env.API_TOKEN || undefined;
  console.log('Starting DynamoDB Local, the local S3 server and the API…');
  const runtime = await startRuntime({ port, host, dataDir, apiToken, log: (line) => console.log(line) });
  const reviewer = await issueLocalReviewerToken(runtime.doc, LOCAL_TABLE);
  console.log('');
  console.log(`  API        ${runtime.url}`);
  console.log(`  Token      ${apiToken ? '(API_TOKEN from the environment)' : runtime.token}  (API token: for curl and your code)`);
  console.log(`  Console    ${runtime.url}/console  (sign in with the reviewer token below)`);
  console.log(`  Reviewer   ${reviewer.token}  (reviewer token for the console: acts as ${reviewer.name}; new at each start)`);
  console.log(`  Flows      ${runtime.flows.map((f) => `${f.path} (${f.name})`).join(', ')}`);
  console.log(`  Data       ${dataDir}`);
  console.log(`  Lists      ${runtime.screeningLists.map((l) => `${l.list} (${l.entries} entries, as of ${l.asOf})`).join(', ') || 'none'}  (sanctions screening; SCREENING_LISTS=<folder> for others)`);
  const { extractor } = runtime;
  console.log(
    `  Extractor  ${extractor === 'sandbox' ? 'sandbox (TEST MODE: outcomes come from idv-sandbox payloads in the images)' : extractor === 'offline' ? 'offline (MRZ, PDF417, OCR and face match in process; engines load on the first document)' : extractor}`,
  );
  console.log('');
  console.log(`  curl -H "Authorization: Bearer <token>" ${runtime.url}/api/v1/default/verifications`);
  console.log('');
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${(error as Error).message}`);
  process.exit(1);
});
