import { defaultBody, useTestRuntime } from './harness';

/**
 * Names and addresses reach reviewers, reports and webhooks: over HTTP, a control or bidirectional
 * character, a lone surrogate or bytes that were not UTF-8 get a 422 naming the field, and nothing is
 * stored.
 */
describe('hostile names and addresses over HTTP', () => {
  const t = useTestRuntime();
  const PATH = '/api/v1/default/verifications';
  const count = async () => (await t.api('GET', PATH)).body.meta.total as number;

  it.each([
    ['NUL in the first name', 'person.first_name', '"Ada\\u0000"'],
    ['a right-to-left override in the street', 'address.street', '"1 Main St\\u202e"'],
    ['a lone surrogate in the city', 'address.city', '"Aus\\ud800tin"'],
    ['an escape sequence in the last name', 'person.last_name', '"\\u001b[2J"'],
  ])('answers 422 for %s', async (_what, field, json) => {
    const before = await count();
    const [group, key] = field.split('.') as [string, string];
    // The value goes in as the JSON escapes a client sends (`\u0000`, `\ud800`...).
    const fields = defaultBody() as unknown as Record<string, Record<string, string>>;
    fields[group]![key] = '@@';
    const res = await t.api('POST', PATH, undefined, { raw: JSON.stringify(fields).replace('"@@"', json) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.any(String), errors: { [field]: [expect.stringContaining('must not contain')] } });
    expect(await count()).toBe(before);
  });

  it('answers 422 naming the field when the body was not UTF-8 (the bytes decode to U+FFFD)', async () => {
    const before = await count();
    const text = JSON.stringify(defaultBody()).replace('"Lovelace"', '"Love\u0000lace"');
    const bytes = Buffer.from(text, 'utf8');
    bytes[bytes.indexOf(0)] = 0xe9; // a Latin-1 é: not valid UTF-8 on its own
    const res = await fetch(`${t.h.runtime.url}${PATH}`, { method: 'POST', headers: { Authorization: `Bearer ${t.h.runtime.token}`, 'Content-Type': 'application/json' }, body: bytes });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: expect.any(String), errors: { 'person.last_name': [expect.stringContaining('not valid UTF-8')] } });
    expect(await count()).toBe(before);
  });

  it('stores names in any script', async () => {
    const res = await t.api('POST', PATH, { ...defaultBody(), person: { first_name: 'Zoë', last_name: 'محمد\u200cزاده' } });
    expect(res.status).toBe(201);
    expect(await count()).toBeGreaterThan(0);
    expect(res.body.data.expected_data.person).toMatchObject({ first_name: 'Zoë', last_name: 'محمد\u200cزاده' });
  });
});
