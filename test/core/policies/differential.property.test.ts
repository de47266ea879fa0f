/**
 * The differential check on generated pods: every rule with a CEL form gives the same verdict from the generated
 * policy (run by @bufbuild/cel) as from its TypeScript check (the engine on the pod alone), on pods and workloads
 * built from the pieces the scheduling and image rules read: spec.os, OS, build and pool selectors, required
 * affinity on the OS and the build, tolerations, Windows, Linux and build-tagged images, HostProcess, a
 * RuntimeClass name and suppression annotations.
 */
import fc from 'fast-check';
import { propertyParameters } from '../../helpers/property';
import { runtimeClass, workload } from './arbitraries';
import { differential } from './differential';

test('generated pods and workloads get the same verdict from every CEL form as from its rule', () => {
  fc.assert(
    fc.property(workload, (object) => {
      const found = differential(object, 'generated');
      expect(found.mismatches).toEqual([]);
      expect(found.errors).toEqual([]);
    }),
    propertyParameters(150),
  );
});

test('generated RuntimeClasses get the same verdict from every CEL form as from its rule', () => {
  fc.assert(
    fc.property(runtimeClass, (object) => {
      const found = differential(object, 'generated');
      expect(found.mismatches).toEqual([]);
      expect(found.errors).toEqual([]);
    }),
    propertyParameters(100),
  );
});
