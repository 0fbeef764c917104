import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { OPENAPI_FILE } from '../../scripts/openapi';

/**
 * What a strict client meets: every schema of the served contract compiles under Ajv's JSON Schema
 * 2020-12 build in strict mode (invalid keywords such as an empty `prefixItems`, unknown keywords
 * and ambiguous types are errors), with only OpenAPI's own `example` keyword added.
 */
describe('the OpenAPI document under a strict JSON Schema 2020-12 validator', () => {
  // The component schemas as a 2020-12 document of their own (`openapi`): every reference rewritten to its `$defs`.
  const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8').replaceAll('#/components/schemas/', 'openapi#/$defs/'));

  it('compiles every component schema and every inline response and request schema', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: true });
    addFormats(ajv);
    ajv.addKeyword('example');
    ajv.addSchema({ $id: 'openapi', $defs: doc.components.schemas }, 'openapi');
    const failures: string[] = [];
    for (const name of Object.keys(doc.components?.schemas ?? {})) {
      try {
        ajv.compile({ $ref: `openapi#/$defs/${name}` });
      } catch (error) {
        failures.push(`${name}: ${(error as Error).message}`);
      }
    }
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        const bodies = [op.requestBody, ...Object.values(op.responses ?? {})].map((r: any) => r?.content?.['application/json']?.schema).filter(Boolean);
        for (const schema of bodies) {
          try {
            ajv.compile(schema);
          } catch (error) {
            failures.push(`${method.toUpperCase()} ${path}: ${(error as Error).message}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('describes an unprocessed document\'s extracted_data as an empty array only', () => {
    // An empty `prefixItems` is invalid 2020-12 (strict validators and generators refuse the document).
    expect(JSON.stringify(doc).match(/"prefixItems":\[\]/g) ?? []).toEqual([]);
  });
});
