/**
 * Selects the example program of the repository's `Pulumi.yaml` (through `main.js`): the one for the cloud named by
 * the stack config `k8s-windows:cloud` (`eks`, `aks` or `gke`), e.g. `pulumi config set k8s-windows:cloud aks`.
 * Loading this module runs nothing; `loadExample` runs a program.
 */
import * as pulumi from '@pulumi/pulumi';

/** The clouds an example exists for. */
export const CLOUDS = ['eks', 'aks', 'gke'] as const;
export type Cloud = (typeof CLOUDS)[number];

export function isCloud(value: unknown): value is Cloud {
  return typeof value === 'string' && (CLOUDS as readonly string[]).includes(value);
}

/** Loads (and so runs) the example program of a cloud; its stack outputs are the module's exports. */
export function loadExample(cloud: Cloud): Record<string, unknown> {
  switch (cloud) {
    case 'eks':
      return require('./eks') as Record<string, unknown>; // eslint-disable-line @typescript-eslint/no-require-imports
    case 'aks':
      return require('./aks') as Record<string, unknown>; // eslint-disable-line @typescript-eslint/no-require-imports
    case 'gke':
      return require('./gke') as Record<string, unknown>; // eslint-disable-line @typescript-eslint/no-require-imports
    default: {
      const unknownCloud: never = cloud;
      throw new Error(`No example for cloud ${String(unknownCloud)}`);
    }
  }
}

/** The cloud named by the stack config `k8s-windows:cloud`; an `InputPropertiesError` when it names none. */
export function cloudFromConfig(): Cloud {
  const cloud = new pulumi.Config('k8s-windows').require('cloud');
  if (!isCloud(cloud)) {
    throw new pulumi.InputPropertiesError({
      message: `k8s-windows:cloud is '${cloud}'`,
      errors: [
        { propertyPath: 'k8s-windows:cloud', reason: `'${cloud}' has no example. Use one of ${CLOUDS.join(', ')}.` },
      ],
    });
  }
  return cloud;
}
