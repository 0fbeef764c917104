/**
 * A function is told only what it uses (lib/service-function.ts `toldWhatItUses`): the table's and the
 * bucket's names are checked when a port that needs them is first built, and a function that uses no
 * port is given no configuration to check.
 */
type Container = typeof import('../../src/container');

const SAVED = ['TABLE_NAME', 'BUCKET_NAME', 'AWS_REGION'] as const;

describe('configuration, by what a function uses', () => {
  const saved = Object.fromEntries(SAVED.map((k) => [k, process.env[k]]));
  afterEach(() => {
    for (const [k, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
    }
  });

  const fresh = async (env: Partial<Record<(typeof SAVED)[number], string>>): Promise<Container> => {
    for (const k of SAVED) delete process.env[k];
    Object.assign(process.env, env);
    let container!: Container;
    jest.isolateModules(() => {
      container = jest.requireActual<Container>('../../src/container');
    });
    return container;
  };

  it('asks nothing of a function that uses no port', async () => {
    const { getDeps } = await fresh({});
    const deps = await getDeps([]);
    expect(Object.keys(deps)).toEqual([]);
    // Still a view of no port: reaching for one names the route table, as for any function.
    expect(() => (deps as Record<string, unknown>).flows).toThrow("Undeclared dependency 'flows'");
  });

  it('names the table when a table port is built without it', async () => {
    const { getDeps } = await fresh({ BUCKET_NAME: 'b', AWS_REGION: 'eu-west-1' });
    await expect(getDeps(['flows'])).rejects.toThrow('Invalid configuration: TABLE_NAME is required by this function');
  });

  it('names the bucket when the image store is built without it', async () => {
    const { getDeps } = await fresh({ TABLE_NAME: 't', AWS_REGION: 'eu-west-1' });
    const deps = await getDeps(['blobs', 'flows']);
    expect(deps.flows).toBeDefined();
    expect(() => deps.blobs).toThrow('Invalid configuration: BUCKET_NAME is required by this function');
  });
});
