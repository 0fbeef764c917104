import { checkEngine } from '../local/engine';

/** Jest's globalSetup: the tests run on the Lambdas' Node.js major, or not at all. */
export default function engineSetup(): void {
  checkEngine();
}
