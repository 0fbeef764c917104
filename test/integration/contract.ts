import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { matchRoute } from '../../local/server';

const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');

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
