import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The oldest Node.js major the service runs on: package.json `engines.node` (`>=22`, the Lambdas'
 * nodejs22.x). `npm start` and `npm test` get it from the `node` devDependency (npm puts
 * node_modules/.bin first on the PATH of scripts), whatever Node.js installed the packages.
 */
export function requiredNodeMajor(): number {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const match = /^>=\s*(\d+)/.exec(pkg.engines?.node ?? '');
  if (!match?.[1]) throw new Error('package.json engines.node must read ">=<major>"');
  return Number(match[1]);
}

/** Fails fast when run on an older Node.js than the Lambdas run (tsx or jest started outside npm scripts). */
export function checkEngine(version: string = process.versions.node): void {
  const required = requiredNodeMajor();
  const major = Number(version.split('.')[0]);
  if (major < required) {
    throw new Error(
      `Node.js ${version} is older than the Lambdas' Node.js ${required}: run through npm (npm start, npm test), which uses the node devDependency, or install Node.js ${required}.`,
    );
  }
}
