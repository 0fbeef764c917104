import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '../../src/http/routes';
import { buildOpenApi, OPENAPI_FILE } from '../../scripts/openapi';

const ROOT = join(__dirname, '..', '..');

describe('OpenAPI contract', () => {
  const checkedIn = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));

  it('is checked in as generated from the route table and the schemas (run npm run openapi after a change)', () => {
    expect(checkedIn).toEqual(buildOpenApi());
  });

  it('describes every route of the route table', () => {
    const operations = Object.values(checkedIn.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(operations.sort()).toEqual(routes.map((r) => r.operation).sort());
  });

  it('is lint-clean with @redocly/cli', () => {
    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', OPENAPI_FILE, '--config', join(ROOT, 'redocly.yaml')], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      encoding: 'utf8',
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status).toBe(0);
    expect(output).toContain('Your API description is valid');
    // Lint findings are reported as "N warnings" / "N errors"; none may be there (a runtime notice about Node 20 is not a finding).
    expect(output).not.toMatch(/\d+ (warning|error)s?\b/i);
  }, 60_000);
});

describe('links from the operations that create a resource', () => {
  const doc = buildOpenApi() as any;
  const linksOf = (operation: string) => {
    const r = routes.find((x) => x.operation === operation)!;
    return doc.paths[r.path][r.method.toLowerCase()].responses[String(r.status)].links as Record<string, { operationId: string; parameters: Record<string, string> }>;
  };
  const on = (prefix: string) => routes.filter((r) => r.path.startsWith(prefix)).map((r) => r.operation).sort();

  it('lead from Create Verification to every operation on the verification', () => {
    expect(Object.keys(linksOf('createVerification')).sort()).toEqual(on('/api/v1/{flow}/verifications/{verificationId}'));
    expect(on('/api/v1/{flow}/verifications/{verificationId}')).toEqual(
      expect.arrayContaining(['getVerification', 'updateVerification', 'deleteVerification', 'submitVerification', 'approveVerification', 'rejectVerification', 'cancelVerification']),
    );
  });

  it('lead from Create Document to every operation on the document', () => {
    expect(Object.keys(linksOf('createDocument')).sort()).toEqual(on('/api/v1/{flow}/documents/{documentId}'));
  });

  it('fill every path parameter of the target: the new id from the response, the flow from the request', () => {
    for (const operation of ['createVerification', 'createDocument']) {
      for (const link of Object.values(linksOf(operation))) {
        const target = routes.find((r) => r.operation === link.operationId)!;
        const names = [...target.path.matchAll(/\{(\w+)\}/g)].map(([, n]) => n);
        expect(Object.keys(link.parameters).sort()).toEqual(names.sort());
        expect(link.parameters.flow).toBe('$request.path.flow');
        expect(Object.values(link.parameters)).toContain('$response.body#/data/id');
      }
      const r = routes.find((x) => x.operation === operation)!;
      const ok = doc.paths[r.path].post.responses[String(r.status)].content['application/json'];
      expect(ok.example.data.id).toEqual(expect.any(String));
    }
  });
});

describe('contract checks used by the integration tests', () => {
  it('accept the documented examples and refuse a wrong body or an undocumented status', async () => {
    const { expectMatchesContract } = await import('../integration/contract');
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    const example = doc.paths['/api/v1/{flow}/verifications/{verificationId}'].get.responses['200'].content['application/json'].example;
    expect(() => expectMatchesContract('GET', '/api/v1/default/verifications/ver_1', 200, example)).not.toThrow();
    expect(() => expectMatchesContract('GET', '/api/v1/default/verifications/ver_1', 200, { data: { ...example.data, status_label: 'Pending' } })).toThrow(/does not match/);
    expect(() => expectMatchesContract('GET', '/api/v1/default/verifications/ver_1', 200, { data: { ...example.data, extra: 1 } })).toThrow(/does not match/);
    expect(() => expectMatchesContract('GET', '/api/v1/default/verifications/ver_1', 418, {})).toThrow(/not documented to answer 418/);
    expect(() => expectMatchesContract('POST', '/api/v1/default/verifications', 422, { message: 'x', errors: { a: ['b'] } })).not.toThrow();
  });
});
