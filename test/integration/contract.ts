import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { matchRoute } from '../../local/server';

const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: document.components, paths: document.paths }, 'openapi');

/**
 * Checks a real response against openapi/openapi.json: the status must be one the document lists
 * for the operation, and the body must match that response's schema.
 */
export function expectMatchesContract(method: string, path: string, status: number, body: unknown): void {
  const match = matchRoute(method, path.split('?')[0]!.replace(/\/{2,}/g, '/'));
  if (!match) return; // unknown routes answer the gateway's 404, outside the document
  const operation = document.paths[match.route.path]?.[method.toLowerCase()];
  const response = operation?.responses?.[String(status)];
  if (!response) throw new Error(`contract: ${match.route.operation} is not documented to answer ${status}`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return;
  const validate = ajv.getSchema(`openapi${schema.$ref}`) ?? ajv.compile({ $ref: `openapi${schema.$ref}` });
  if (!validate(body)) {
    throw new Error(`contract: ${match.route.operation} ${status} body does not match: ${ajv.errorsText(validate.errors)}`);
  }
}

/**
 * Checks the request side: a body the service accepted (2xx) must be one the document allows for the
 * operation, so a contract stricter than the service (a client generated from it could not send what
 * works) fails the test that sent it.
 */
export function expectRequestMatchesContract(method: string, path: string, status: number, body: unknown): void {
  if (status < 200 || status > 299 || body === undefined) return;
  const match = matchRoute(method, path.split('?')[0]!.replace(/\/{2,}/g, '/'));
  if (!match) return;
  const schema = document.paths[match.route.path]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`contract: ${match.route.operation} accepted a body the document does not describe`);
  const pointer = ['paths', match.route.path, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'].map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
  const ref = `openapi#/${pointer}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body)) {
    throw new Error(`contract: ${match.route.operation} accepted (${status}) a request body the document forbids: ${ajv.errorsText(validate.errors)}`);
  }
}
