/**
 * `kubectl explain`, checked against what kubectl 1.32 prints for the same OpenAPI v3 shapes
 * (the plaintext template of staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl,
 * compared by running the real kubectl 1.32 against a server publishing such schemas): the field
 * and type descriptions one after the other, go-wordwrap at 76 columns, `<[]T>`/`<map[string]T>`,
 * `-required-`, `--recursive` stopping at a type already open above, a CRD's own schema, and the
 * errors.
 */
import { describe, expect, it } from 'vitest';
import { bench } from './testing';
import { wordWrap } from './explain';

const SHELF_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: shelves.bookshop.example.dev
spec:
  group: bookshop.example.dev
  scope: Namespaced
  names: {plural: shelves, singular: shelf, kind: Shelf}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: A shelf of books.
        properties:
          spec:
            type: object
            required: [isbns]
            properties:
              isbns: {type: array, items: {type: string}, description: The books on the shelf.}
              labels: {type: object, additionalProperties: {type: string}}
`;

describe('kubectl explain', () => {
  it('a field of a struct type: its description, then the type\'s, then the type\'s fields', () => {
    const b = bench();
    expect(b.run('kubectl explain pod.spec.containers.livenessProbe.httpGet')).toEqual({
      stdout:
        'KIND:       Pod\nVERSION:    v1\n\nFIELD: httpGet <HTTPGetAction>\n\n\nDESCRIPTION:\n' +
        '    HTTPGet specifies the http request to perform.\n    HTTPGetAction describes an action based on HTTP Get requests.\n    \n' +
        'FIELDS:\n' +
        '  host\t<string>\n    Host name to connect to, defaults to the pod IP. You probably want to set\n    "Host" in httpHeaders instead.\n\n' +
        '  httpHeaders\t<[]HTTPHeader>\n    Custom headers to set in the request. HTTP allows repeated headers.\n\n' +
        '  path\t<string>\n    Path to access on the HTTP server.\n\n' +
        '  port\t<IntOrString> -required-\n    Name or number of the port to access on the container. Number must be in the\n    range 1 to 65535. Name must be an IANA_SVC_NAME.\n\n' +
        '  scheme\t<string>\n    Scheme to use for connecting to the host. Defaults to HTTP.\n\n\n',
      stderr: '',
      code: 0,
    });
  });

  it('walks arrays and maps, names Time as string and Quantity by name', () => {
    const b = bench();
    const limits = b.run('kubectl explain deploy.spec.template.spec.containers.resources.limits').stdout;
    expect(limits.startsWith('GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: limits <map[string]Quantity>\n\n\nDESCRIPTION:\n    Limits describes the maximum amount of compute resources allowed. More info:\n')).toBe(true);
    expect(limits).toContain('\n    Quantity is a fixed-point representation of a number.');
    expect(b.run('kubectl explain pods.metadata.creationTimestamp').stdout).toContain('FIELD: creationTimestamp <string>\n');
    expect(b.run('kubectl explain pods.spec').stdout).toContain('  containers\t<[]Container> -required-\n    List of containers belonging to the pod.');
  });

  it('covers the kinds beyond the first ones: HorizontalPodAutoscaler, NetworkPolicy, PodDisruptionBudget', () => {
    const b = bench();
    expect(b.run('kubectl explain hpa.spec.maxReplicas').stdout).toContain('GROUP:      autoscaling\nKIND:       HorizontalPodAutoscaler\nVERSION:    v2\n\nFIELD: maxReplicas <integer>\n');
    expect(b.run('kubectl explain netpol.spec').stdout).toContain('  podSelector\t<LabelSelector>');
    expect(b.run('kubectl explain pdb.spec').stdout).toContain('  minAvailable\t<IntOrString>\n');
  });

  it('--recursive lists names only and does not open a type again inside itself', () => {
    const b = bench();
    const out = b.run('kubectl explain crd.spec.versions.schema --recursive').stdout;
    // JSONSchemaProps refers to itself: its fields appear once, below openAPIV3Schema, not again below them.
    expect(out).toContain('FIELDS:\n  openAPIV3Schema\t<JSONSchemaProps>\n    $ref\t<string>\n');
    expect(out).toContain('    allOf\t<[]JSONSchemaProps>\n    anyOf\t<[]JSONSchemaProps>\n');
    expect(out.endsWith('\n\n')).toBe(true);
    const deploy = b.run('kubectl explain deployment --recursive').stdout;
    expect(deploy).toContain('  spec\t<DeploymentSpec>\n    minReadySeconds\t<integer>\n');
    expect(deploy).toContain('        containers\t<[]Container> -required-\n          args\t<[]string>\n');
  });

  it('a CustomResourceDefinition\'s kind from its served schema, with the standard apiVersion, kind and metadata', () => {
    const b = bench({ files: { '/crd.yaml': SHELF_CRD } });
    expect(b.run('kubectl apply -f /crd.yaml').code).toBe(0);
    const root = b.run('kubectl explain shelves').stdout;
    expect(root).toContain('GROUP:      bookshop.example.dev\nKIND:       Shelf\nVERSION:    v1\n\nDESCRIPTION:\n    A shelf of books.\n    \nFIELDS:\n  apiVersion\t<string>\n');
    expect(root).toContain('  metadata\t<ObjectMeta>\n    Standard object\'s metadata.');
    expect(root).toContain('  spec\t<Object>\n    <no description>\n\n');
    expect(b.run('kubectl explain shelf.spec').stdout).toContain(
      'FIELD: spec <Object>\n\n\nDESCRIPTION:\n    <empty>\nFIELDS:\n  isbns\t<[]string> -required-\n    The books on the shelf.\n\n  labels\t<map[string]string>\n    <no description>\n\n\n',
    );
  });

  it('errors: unknown type, a missing field (named by the path\'s last segment, after the header), api-version, output', () => {
    const b = bench();
    expect(b.run('kubectl explain foo')).toEqual({ stdout: '', stderr: 'the server doesn\'t have a resource type "foo"\n', code: 1 });
    expect(b.run('kubectl explain pods.nope.nodeName')).toEqual({ stdout: 'KIND:       Pod\nVERSION:    v1\n\n', stderr: 'error: field "nodeName" does not exist\n', code: 1 });
    expect(b.run('kubectl explain pods.spec.nodeName.x').stderr).toBe('error: field "x" does not exist\n');
    expect(b.run('kubectl explain pods --api-version=v2')).toMatchObject({ stderr: 'error: couldn\'t find resource for "/v2, Resource=pods"\n', code: 1 });
    expect(b.run('kubectl explain deploy --api-version=apps/v1').code).toBe(0);
    expect(b.run('kubectl explain pods --output=foo')).toMatchObject({ stderr: 'error: unrecognized format: foo\n', code: 1 });
  });
});

describe('kubectl explain: the argument as a JSONPath (explain.go SplitAndParseResourceRequestWithMatchingPrefix)', () => {
  it('resource.group prefixes the fields, a trailing dot is dropped, a non-field segment is a JSONPath error', () => {
    const b = bench();
    const replicas = b.run('kubectl explain deploy.spec.replicas');
    expect(replicas.stdout).toMatch(/^GROUP: {6}apps\nKIND: {7}Deployment\nVERSION: {4}v1\n\nFIELD: replicas <integer>\n/);
    // Checked against kubectl 1.32: `pods.spec.nodeName.` and `pods.spec.nodeName` print the same.
    expect(b.run('kubectl explain deploy.spec.replicas.')).toEqual(replicas);
    expect(b.run('kubectl explain deployments.apps.spec.replicas')).toEqual(replicas);
    // `resource.version.group` is not a prefix: the segments after the first are fields.
    expect(b.run('kubectl explain deployments.v1.apps')).toMatchObject({ stderr: 'error: field "apps" does not exist\n', code: 1 });
    expect(b.run('kubectl explain pods.spec..nodeName')).toEqual({ stdout: '', stderr: 'error: invalid jsonpath syntax, first node must be field node\n', code: 1 });
    expect(b.run('kubectl explain pods.spec.nodeName[0]')).toEqual({ stdout: '', stderr: 'error: invalid jsonpath syntax, first node must be field node\n', code: 1 });
    // With --api-version the plain split: every segment after the resource is a field.
    expect(b.run('kubectl explain deployments.apps --api-version=apps/v1')).toMatchObject({ stderr: 'error: field "apps" does not exist\n', code: 1 });
    expect(b.run('kubectl explain pods.spec..x --api-version=v1')).toMatchObject({ stderr: 'error: invalid jsonpath syntax, all nodes must be field nodes\n', code: 1 });
  });
});

describe('wordWrap (mitchellh/go-wordwrap)', () => {
  it('keeps runs of spaces inside a line, drops them at a break, keeps a trailing space that fits, never splits a word', () => {
    // Checked against kubectl 1.32's output for the same description.
    expect(wordWrap('x     y  z  ' + 'word '.repeat(30), 76)).toBe(
      'x     y  z  word word word word word word word word word word word word word\nword word word word word word word word word word word word word word word\nword word ',
    );
    expect(wordWrap('More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources', 76)).toBe(
      'More info:\nhttps://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    );
    expect(wordWrap('a\n\nb', 76)).toBe('a\n\nb');
  });
});
