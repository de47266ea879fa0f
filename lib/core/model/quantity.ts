/** Kubernetes resource quantities (https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/). */

/**
 * Each suffix's multiplier ('' for none).
 * @internal
 */
export const QUANTITY_SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
/**
 * A quantity's number, before its suffix.
 * @internal
 */
export const QUANTITY_NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const QUANTITY = new RegExp(
  `^(${QUANTITY_NUMBER.source})(${Object.keys(QUANTITY_SUFFIX)
    .filter((k) => k !== '')
    .join('|')})?$`,
);

/** A Kubernetes quantity (`1Gi`, `1024Mi`, `1e9`, 512) in base units, or undefined when it is not one. */
export function parseQuantity(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = QUANTITY.exec(v.trim());
  if (!m) return undefined;
  return Number(m[1]) * QUANTITY_SUFFIX[m[2] ?? ''];
}
