/**
 * The edit strategies' table (`Operations`): each edit reaches its own operation's methods, an op no strategy knows
 * reaches none, and a table without every operation does not compile (tsc checks the `@ts-expect-error`).
 */
import type { FixEdit } from '../../../lib/core/model/fixes';
import { operationOf, type Operations } from '../../../lib/core/yaml/operations';

type Said = {
  readonly checkAt: string;
  readonly applyAt: string;
  readonly checked: string;
  readonly applied: string;
};

const SAID: Operations<Said> = {
  set: { check: (at, e) => `check set ${at} ${e.path}=${String(e.value)}`, apply: (at, e) => `set ${at} ${e.path}` },
  remove: { check: (at, e) => `check remove ${at} ${e.path}`, apply: (at, e) => `remove ${at} ${e.path}` },
  append: { check: (at, e) => `check append ${at} ${e.path}`, apply: (at, e) => `append ${at} ${e.path}` },
};

test.each<[FixEdit, string, string]>([
  [
    { op: 'set', path: 'spec.os.name', value: 'windows' },
    'check set here spec.os.name=windows',
    'set here spec.os.name',
  ],
  [{ op: 'remove', path: 'spec.hostPID' }, 'check remove here spec.hostPID', 'remove here spec.hostPID'],
  [
    { op: 'append', path: 'spec.tolerations', value: {} },
    'check append here spec.tolerations',
    'append here spec.tolerations',
  ],
])('%j reaches its own operation', (edit, checked, applied) => {
  const operation = operationOf(SAID, edit);
  expect(operation?.check('here', edit)).toBe(checked);
  expect(operation?.apply('here', edit)).toBe(applied);
});

test('an op no strategy knows reaches none, even a name every object has', () => {
  for (const op of ['move', 'toString', 'constructor']) {
    expect(operationOf(SAID, { op, path: 'spec' } as unknown as FixEdit)).toBeUndefined();
  }
});

test('a strategy makes every operation: a table without one does not compile', () => {
  // @ts-expect-error `append` is missing: a new op in FixEdit fails every strategy's table the same way.
  const partial: Operations<Said> = { set: SAID.set, remove: SAID.remove };
  expect(Object.keys(partial)).toEqual(['set', 'remove']);
});
