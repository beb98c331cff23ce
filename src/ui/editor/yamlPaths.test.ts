import { describe, expect, it } from 'vitest';
import { locateFieldPath, splitFieldPath, syntaxProblems } from './yamlPaths';

const TWO_DOCS = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: a
        image: nginx:1.27
      - name: b
        image: busybox:1.36
`;

describe('splitFieldPath', () => {
  it('splits field.Path renderings into keys and indexes', () => {
    expect(splitFieldPath('spec.template.spec.containers[1].image')).toEqual(['spec', 'template', 'spec', 'containers', 1, 'image']);
    expect(splitFieldPath('metadata.labels[app.kubernetes.io/name]')).toEqual(['metadata', 'labels', 'app.kubernetes.io/name']);
  });
});

describe('locateFieldPath', () => {
  it('finds the key of a path in the document that starts at the given line', () => {
    expect(locateFieldPath(TWO_DOCS, 'spec.template.metadata.labels', 9)).toEqual({ line: 22, column: 7, endLine: 22, endColumn: 13 });
    expect(locateFieldPath(TWO_DOCS, 'spec.replicas', 9)).toMatchObject({ line: 16, column: 3 });
    // The same path in the first document.
    expect(locateFieldPath(TWO_DOCS, 'spec.ports[0].port', 1)).toMatchObject({ line: 7, column: 5 });
  });

  it('follows list indexes and bracketed map keys', () => {
    expect(locateFieldPath(TWO_DOCS, 'spec.template.spec.containers[1].image', 9)).toMatchObject({ line: 29, column: 9 });
    expect(locateFieldPath(TWO_DOCS, 'metadata.labels[app.kubernetes.io/name]', 9)).toMatchObject({ line: 14, column: 5 });
  });

  it('falls back to the deepest field present (a Required value names a missing one)', () => {
    expect(locateFieldPath(TWO_DOCS, 'spec.template.spec.containers[0].resources.limits', 9)).toMatchObject({ line: 26, column: 9 });
    expect(locateFieldPath(TWO_DOCS, 'spec.strategy', 9)).toMatchObject({ line: 15, column: 1 });
  });
});

describe('syntaxProblems', () => {
  it('is empty for YAML that parses', () => {
    expect(syntaxProblems(TWO_DOCS)).toEqual([]);
  });

  it('reports an error at its line and column', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n data: 1\n';
    const p = syntaxProblems(text);
    expect(p.length).toBeGreaterThan(0);
    expect(p[0]).toMatchObject({ line: 5, column: 1 });
    expect(p[0].message).toBe('All mapping items must start at the same column');
  });

  it('reports an unclosed flow sequence in the second document', () => {
    const p = syntaxProblems('a: 1\n---\nb: [1, 2\nc: 3\n');
    expect(p.length).toBeGreaterThan(0);
    expect(p[0].line).toBeGreaterThanOrEqual(3);
  });
});
