import type { ChangeContext } from '../domain/transitions';
import type { Deps } from './deps';

/** Time and id source of one change, from the use case's Clock and IdGenerator. */
export function changeContext(deps: Pick<Deps, 'clock' | 'ids'>): ChangeContext {
  return { now: deps.clock.now(), newId: (prefix) => deps.ids.next(prefix) };
}
