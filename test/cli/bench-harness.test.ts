/** The bench harness (bench/harness.ts) that `npm run bench` drives; its table is the CLI's performance report. */
import { defineBench, formatMs, formatTable, measure, median } from '../../bench/harness';

describe('bench harness', () => {
  test('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  test('measure: warm-up, interleaved rounds, teardown, PASS/OVER against the aim', async () => {
    const calls: string[] = [];
    const bench = (aim: number) =>
      defineBench({
        title: 'trivial',
        aim,
        warmup: 1,
        rounds: 3,
        setup: () => ({
          baseline: { label: 'a', run: () => calls.push('a') },
          candidate: { label: 'b', run: async () => calls.push('b') },
          teardown: () => {
            calls.push('teardown');
          },
        }),
      });
    const result = await measure('trivial', bench(Number.POSITIVE_INFINITY), {
      collectGarbage: () => calls.push('gc'),
    });
    // Warm-up a,b; then rounds alternate who goes first: a,b / b,a / a,b, each timed run after a collection.
    expect(calls).toEqual(['a', 'b', 'gc', 'a', 'gc', 'b', 'gc', 'b', 'gc', 'a', 'gc', 'a', 'gc', 'b', 'teardown']);
    expect(result).toMatchObject({
      name: 'trivial',
      baselineLabel: 'a',
      candidateLabel: 'b',
      rounds: 3,
      status: 'PASS',
    });
    expect(result.ratio).toBe(result.candidateMs / result.baselineMs);
    // The default collector (a real full collection, --expose-gc switched on at first use).
    expect((await measure('trivial', bench(-1), { rounds: 1 })).status).toBe('OVER');
  });

  test('a side that times itself (a fresh child process) reports its own elapsedMs', async () => {
    const result = await measure(
      'self-timed',
      defineBench({
        title: 'self-timed',
        aim: 2,
        rounds: 3,
        setup: () => ({
          baseline: { label: 'a', run: () => ({ elapsedMs: 100 }) },
          candidate: { label: 'b', run: () => ({ elapsedMs: 150 }) },
        }),
      }),
      { collectGarbage: () => undefined },
    );
    expect(result).toMatchObject({ baselineMs: 100, candidateMs: 150, ratio: 1.5, status: 'PASS' });
  });

  test('teardown runs even when a side throws', async () => {
    let tornDown = false;
    const failing = defineBench({
      title: 'fails',
      aim: 1,
      setup: () => ({
        baseline: { label: 'a', run: () => undefined },
        candidate: {
          label: 'b',
          run: () => {
            throw new Error('boom');
          },
        },
        teardown: () => {
          tornDown = true;
        },
      }),
    });
    await expect(measure('fails', failing)).rejects.toThrow('boom');
    expect(tornDown).toBe(true);
  });

  test('table: one row per bench with medians, ratio, aim and result', () => {
    const table = formatTable([
      {
        name: 'lint',
        title: 'lint vs parse',
        baselineLabel: 'yaml parse',
        candidateLabel: 'k8s-windows lint',
        baselineMs: 1500,
        candidateMs: 1800,
        ratio: 1.2,
        aim: 1.5,
        status: 'PASS',
        rounds: 5,
      },
    ]);
    expect(table.split('\n')).toEqual([
      'bench  baseline (median)   candidate (median)        ratio  aim     result',
      '-----  ------------------  ------------------------  -----  ------  ------',
      'lint   yaml parse: 1.50 s  k8s-windows lint: 1.80 s  1.20x  <= 1.5  PASS',
      '',
      '  lint: lint vs parse (5 rounds)',
      '',
    ]);
    expect(formatMs(12.345)).toBe('12.3 ms');
  });
});
