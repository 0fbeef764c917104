/**
 * The request and query schemas are built on first use, not on import: a function whose route takes
 * no body never builds them (about 2.4 ms of its cold start). Watched through valibot's `description`
 * builder, which only the contract's schemas call (the configuration schema, built on import, does not).
 */
import type * as Valibot from 'valibot';

describe('request schemas', () => {
  it('are not built when functions are imported; the first parse builds them once', () => {
    jest.isolateModules(() => {
      const v = jest.requireActual<typeof Valibot>('valibot');
      const built = jest.spyOn(v, 'description');
      for (const file of ['api/get-caller', 'api/list-verifications', 'api/create-verification', 'widget/upload-document']) require(`../../../functions/${file}`);
      expect(built).not.toHaveBeenCalled();

      const { bodySchema, parseBody } = jest.requireActual<typeof import('../../../src/http/schemas')>('../../../src/http/schemas');
      expect(parseBody(bodySchema('ActionBody'), { comment: ' c ', email: 'a@b.co' })).toEqual({ comment: 'c', email: 'a@b.co' });
      const calls = built.mock.calls.length;
      expect(calls).toBeGreaterThan(0);
      bodySchema('CreateVerificationBody');
      expect(built.mock.calls.length).toBe(calls);

      const { parsePage } = jest.requireActual<typeof import('../../../src/http/query')>('../../../src/http/query');
      expect(parsePage('2')).toBe(2);
      expect(built.mock.calls.length).toBeGreaterThan(calls);
    });
  });
});
