/** validateManifests never throws, whatever JSON it is given. */
import fc from 'fast-check';
import { validateManifests } from 'k8s-windows';
import { propertyParameters } from '../../helpers/property';

const KINDS = [
  'Pod',
  'Deployment',
  'CronJob',
  'PodTemplate',
  'Service',
  'RuntimeClass',
  'Namespace',
  'GMSACredentialSpec',
  'RoleBinding',
  'ClusterRole',
  'List',
];
const KEYS = [
  'os',
  'name',
  'securityContext',
  'windowsOptions',
  'hostProcess',
  'runAsUserName',
  'gmsaCredentialSpecName',
  'gmsaCredentialSpec',
  'containers',
  'initContainers',
  'ephemeralContainers',
  'image',
  'nodeSelector',
  'tolerations',
  'affinity',
  'runtimeClassName',
  'volumes',
  'volumeMounts',
  'resources',
  'requests',
  'limits',
  'memory',
  'ports',
  'hostPort',
  'hostNetwork',
  'credspec',
  'DomainJoinConfig',
  'ActiveDirectoryConfig',
  'HostAccountConfig',
  'PluginInput',
  'selector',
  'labels',
  'annotations',
  'handler',
  'scheduling',
  'subjects',
  'roleRef',
  'rules',
  'template',
  'spec',
  'metadata',
  'jobTemplate',
  '__proto__',
  'constructor',
];

/** Values shaped like manifests: the keys the rules read, with any JSON (or nested records) under them. */
const shaped: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), tie('record'), fc.array(tie('value'), { maxLength: 3 })),
  record: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
})).value;

const podLike = fc.record({
  apiVersion: fc.oneof(fc.constant('v1'), fc.jsonValue()),
  kind: fc.oneof(fc.constantFrom(...KINDS), fc.jsonValue()),
  metadata: fc.oneof(
    shaped,
    fc.record({ name: fc.string(), namespace: fc.string(), labels: shaped, annotations: shaped }),
  ),
  spec: shaped,
});

describe('validateManifests never throws', () => {
  test('on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 5 }), (objects) => {
        expect(Array.isArray(validateManifests(objects))).toBe(true);
      }),
      propertyParameters(500),
    );
  });

  test('on objects shaped like pods and workloads with random fields', () => {
    fc.assert(
      fc.property(fc.array(podLike, { maxLength: 6 }), fc.jsonValue(), (objects, rules) => {
        const ds = validateManifests(objects, {
          rules: rules as never,
          kubernetesVersion: '1.33',
          windowsRelease: '2022',
        });
        for (const d of ds) {
          expect(typeof d.ruleId).toBe('string');
          expect(typeof d.path).toBe('string');
        }
      }),
      propertyParameters(1000),
    );
  });

  test('on options of the wrong types', () => {
    fc.assert(
      fc.property(
        fc.array(podLike, { maxLength: 3 }),
        fc.jsonValue(),
        fc.jsonValue(),
        fc.jsonValue(),
        (objects, a, b, c) => {
          validateManifests(objects, { rules: a, windowsRelease: b, kubernetesVersion: c } as never);
        },
      ),
      propertyParameters(300),
    );
  });

  test('on non-array input and non-object options', () => {
    expect(validateManifests(null as never)).toEqual([]);
    expect(validateManifests([null, 1, 'x', []], 5 as never).map((d) => d.ruleId)).toEqual([
      'input-invalid-document',
      'input-invalid-document',
      'input-invalid-document',
      'input-invalid-document',
    ]);
  });
});
