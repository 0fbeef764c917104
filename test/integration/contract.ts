import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { matchRoute } from '../../local/server';

const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: document.components, paths: document.paths }, 'openapi');

/** The documented operation a request reaches, or undefined for a route outside the document (the gateway's 404). */
function operationOf(method: string, path: string): { name: string; path: string; method: string; spec: any } | undefined {
  const match = matchRoute(method, path.split('?')[0]!.replace(/\/{2,}/g, '/'));
  if (!match) return undefined;
  const m = method.toLowerCase();
  return { name: match.route.operation, path: match.route.path, method: m, spec: document.paths[match.route.path]?.[m] };
}

/** A compiled validator for the schema at a JSON pointer into the document. */
function validatorAt(...segments: string[]) {
  const ref = `openapi#/${segments.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
  return ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
}

/**
 * Checks a real response against openapi/openapi.json: the status must be one the document lists
 * for the operation, and the body must match that response's schema.
 */
export function expectMatchesContract(method: string, path: string, status: number, body: unknown): void {
  const op = operationOf(method, path);
  if (!op) return;
  const response = op.spec?.responses?.[String(status)];
  if (!response) throw new Error(`contract: ${op.name} is not documented to answer ${status}`);
  if (!response.content?.['application/json']?.schema) return;
  const validate = validatorAt('paths', op.path, op.method, 'responses', String(status), 'content', 'application/json', 'schema');
  if (!validate(body)) {
    throw new Error(`contract: ${op.name} ${status} body does not match: ${ajv.errorsText(validate.errors)}`);
  }
}

/**
 * Checks the request side: a body the service accepted (2xx) must be one the document allows for the
 * operation, so a contract stricter than the service (a client generated from it could not send what
 * works) fails the test that sent it.
 */
export function expectRequestMatchesContract(method: string, path: string, status: number, body: unknown): void {
  if (status < 200 || status > 299 || body === undefined) return;
  const op = operationOf(method, path);
  if (!op) return;
  if (!op.spec?.requestBody?.content?.['application/json']?.schema) throw new Error(`contract: ${op.name} accepted a body the document does not describe`);
  const validate = validatorAt('paths', op.path, op.method, 'requestBody', 'content', 'application/json', 'schema');
  if (!validate(body)) {
    throw new Error(`contract: ${op.name} accepted (${status}) a request body the document forbids: ${ajv.errorsText(validate.errors)}`);
  }
}
