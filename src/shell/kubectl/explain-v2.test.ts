/**
 * `kubectl explain --output=plaintext-openapiv2`: the old explain over the OpenAPI v2 document
 * (staging/src/k8s.io/kubectl/pkg/explain/ of kubectl 1.32: model_printer.go, fields_printer.go,
 * recursive_fields_printer.go, typename.go, formatter.go), not the v3 template's layout:
 * `KIND:     ` / `VERSION:  group/version`, `RESOURCE:` or `FIELD:    `, descriptions indented by 5
 * and wrapped at 80 columns with a blank line between them, fields indented by 3, `<Object>` for a
 * struct, `<string>` for Time, Quantity and IntOrString.
 */
import { describe, expect, it } from 'vitest';
import { bench } from './testing';
import { wrapString } from './explain-v2';

describe('kubectl explain --output=plaintext-openapiv2', () => {
  it('a field of a struct type: RESOURCE, both descriptions, the fields at 3 with their descriptions at 5', () => {
    const b = bench();
    expect(b.run('kubectl explain deployment.spec.strategy --output=plaintext-openapiv2')).toEqual({
      stdout: `KIND:     Deployment
VERSION:  apps/v1

RESOURCE: strategy <Object>

DESCRIPTION:
     The deployment strategy to use to replace existing pods with new ones.

     DeploymentStrategy describes how to replace existing pods with new ones.

FIELDS:
   rollingUpdate\t<Object>
     Rolling update config params. Present only if DeploymentStrategyType =
     RollingUpdate.

   type\t<string>
     Type of deployment. Can be "Recreate" or "RollingUpdate". Default is
     RollingUpdate.

`,
      stderr: '',
      code: 0,
    });
  });

  it('a primitive: FIELD and its description; Time is a string with its own description after a blank line', () => {
    const b = bench();
    expect(b.run('kubectl explain deploy.spec.replicas -o plaintext-openapiv2').stdout).toBe(`KIND:     Deployment
VERSION:  apps/v1

FIELD:    replicas <integer>

DESCRIPTION:
     Number of desired pods. This is a pointer to distinguish between explicit
     zero and not specified. Defaults to 1.
`);
    const ts = b.run('kubectl explain pod.metadata.creationTimestamp --output=plaintext-openapiv2').stdout;
    expect(ts).toMatch(/^KIND: {5}Pod\nVERSION: {2}v1\n\nFIELD: {4}creationTimestamp <string>\n\nDESCRIPTION:\n {5}CreationTimestamp is /);
    expect(ts).toContain('\n\n     Time is a wrapper around time.Time which supports correct marshaling to\n     YAML and JSON. Wrappers are provided for many of the factory methods that\n     the time package offers.\n');
  });

  it('--recursive: names only, 3 more spaces a level, Quantity maps as map[string]string', () => {
    const b = bench();
    expect(b.run('kubectl explain pod.spec.containers.resources --recursive --output=plaintext-openapiv2').stdout).toBe(`KIND:     Pod
VERSION:  v1

RESOURCE: resources <Object>

DESCRIPTION:
     Compute Resources required by this container. Cannot be updated. More info:
     https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/

     ResourceRequirements describes the compute resource requirements.

FIELDS:
   claims\t<[]Object>
      name\t<string>
   limits\t<map[string]string>
   requests\t<map[string]string>
`);
  });

  it('errors: the first missing field (no header), an unserved version named by its kind', () => {
    const b = bench();
    expect(b.run('kubectl explain pod.spec.foo.bar --output=plaintext-openapiv2')).toEqual({ stdout: '', stderr: 'error: field "foo" does not exist\n', code: 1 });
    expect(b.run('kubectl explain deploy --api-version=apps/v2 --output=plaintext-openapiv2')).toEqual({
      stdout: '',
      stderr: 'error: couldn\'t find resource for "apps/v2, Kind=Deployment"\n',
      code: 1,
    });
  });

  it('wrapString keeps lines after a word ending in ":", bullets, code blocks, and blank lines once a line was flushed', () => {
    expect(wrapString('a b c d', 3)).toEqual(['a b', 'c d']);
    expect(wrapString('Examples:\n- one\n- two\nand more', 80)).toEqual(['Examples:', '- one', '- two and more']);
    // The first blank line only ends the pending line (nothing was flushed yet); the second is kept.
    expect(wrapString('first\n\nsecond\n\n    code\nlast', 80)).toEqual(['first', 'second', '', '    code', 'last']);
  });
});
