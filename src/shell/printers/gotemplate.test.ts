/**
 * Go's text/template as kubectl's `-o go-template` runs it (cli-runtime printers/template.go):
 * the outputs below are what `kubectl get ... -o go-template=...` prints for the same data.
 */
import { describe, expect, it } from 'vitest';
import { GoTemplateError, executeGoTemplate, parseGoTemplate } from './gotemplate';

const svc = {
  kind: 'Service',
  metadata: { name: 'kubernetes-bootcamp', labels: { app: 'kubernetes-bootcamp' }, annotations: null },
  spec: { ports: [{ port: 8080, nodePort: 31127, protocol: 'TCP' }], type: 'NodePort' },
};
const list = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    { metadata: { name: 'a', labels: { app: 'web', tier: 'front' } }, status: { phase: 'Running' } },
    { metadata: { name: 'b', labels: {} }, status: { phase: 'Pending' } },
  ],
};

function run(t: string, data: unknown, missingKeyError = false): string {
  return executeGoTemplate(parseGoTemplate(t), data, { missingKeyError });
}

function parseError(t: string): string {
  try {
    parseGoTemplate(t);
  } catch (e) {
    if (e instanceof GoTemplateError) return e.message;
    throw e;
  }
  return 'parsed';
}

function execError(t: string, data: unknown, missingKeyError = false): string {
  try {
    run(t, data, missingKeyError);
  } catch (e) {
    if (e instanceof GoTemplateError) return e.message;
    throw e;
  }
  return 'ran';
}

describe('Go templates as kubectl -o go-template runs them', () => {
  it("the Kubernetes Basics tutorial's two templates", () => {
    expect(run('{{range .items}}{{.metadata.name}}{{"\\n"}}{{end}}', list)).toBe('a\nb\n');
    expect(run('{{(index .spec.ports 0).nodePort}}', svc)).toBe('31127');
  });

  it('fields, maps and lists print as fmt.Sprint does; a missing key is <no value>, a null <nil>', () => {
    expect(run('{{.spec.type}} {{.spec.ports}} {{.metadata.labels}}', svc)).toBe('NodePort [map[nodePort:31127 port:8080 protocol:TCP]] map[app:kubernetes-bootcamp]');
    // exec.go evalPipeline digs into a nil interface{}: a null and `index` of a missing key print
    // `<no value>` too; as function arguments they are nil (`<nil>`). Checked with kubectl 1.32.
    expect(run('{{.spec.nope}}|{{.spec.nope.deeper}}|{{.metadata.annotations}}', svc)).toBe('<no value>|<no value>|<no value>');
    expect(run('{{index .metadata.labels "app"}} {{index .metadata.labels "nope"}}', svc)).toBe('kubernetes-bootcamp <no value>');
    expect(run('{{index .metadata.labels "nope" | printf "%v"}} {{print .spec.nope}}', svc)).toBe('<nil> <nil>');
  });

  it('if / else if / else, with, range with variables and else, $', () => {
    const t = '{{range $i, $p := .items}}{{$i}}:{{$p.metadata.name}}{{if eq $p.status.phase "Running"}} up{{else if eq $p.status.phase "Pending"}} waiting{{else}} ?{{end}}{{with $p.metadata.labels.tier}} tier={{.}}{{end}}{{"\\n"}}{{end}}';
    expect(run(t, list)).toBe('0:a up tier=front\n1:b waiting\n');
    expect(run('{{range .items}}{{range $k, $v := .metadata.labels}}{{$k}}={{$v}},{{else}}none{{end}};{{end}}', list)).toBe('app=web,tier=front,;none;');
    expect(run('{{range .nope}}x{{else}}empty{{end}} {{$.kind}}', list)).toBe('empty List');
    expect(run('{{$n := len .items}}{{$n}} items', list)).toBe('2 items');
  });

  it('pipelines, printf, print, println, and/or/not, comparisons', () => {
    expect(run('{{.spec.type | printf "%s!"}}', svc)).toBe('NodePort!');
    expect(run('{{printf "%s:%d %v" .metadata.name (index .spec.ports 0).port true}}', svc)).toBe('kubernetes-bootcamp:8080 true');
    expect(run('{{print 1 2 "a" "b" 3}}', {})).toBe('1 2ab3');
    expect(run('{{printf "%s|%v|%t" true .n false}}', { n: 2 })).toBe('%!s(bool=true)|2|false');
    expect(run('{{println "x" 1}}', {})).toBe('x 1\n');
    expect(run('{{and 1 0 2}} {{or 0 "" "z"}} {{not .x}}', {})).toBe('0 z true');
    expect(run('{{lt 1 2}} {{ge 2 3}} {{ne "a" "b"}} {{eq 3 1 2 3}}', {})).toBe('true false true true');
  });

  it('trim markers and comments', () => {
    expect(run('{{- range .items -}}\n  {{ .metadata.name }}\n{{ end -}}\n', list)).toBe('a\nb\n');
    expect(run('a {{/* a comment */}} b {{- /* trimmed */ -}} c', {})).toBe('a  bc');
  });

  it('base64decode (kubectl adds it) reads Secret data', () => {
    expect(run('{{.data.password | base64decode}}', { data: { password: 'czNjcmV0' } })).toBe('s3cret');
  });

  it("parse errors are Go's (each checked against kubectl 1.32)", () => {
    expect(parseError('{{if}}x{{end}}')).toBe('template: output:1: missing value for if');
    expect(parseError('{{"abc}}')).toBe('template: output:1: unterminated quoted string');
    expect(parseError('{{ $x }}')).toBe('template: output:1: undefined variable "$x"');
    expect(parseError('{{range $i, $e := .a}}{{$e}}{{end}}{{$e}}')).toBe('template: output:1: undefined variable "$e"');
    expect(parseError('{{()}}')).toBe('template: output:1: missing value for parenthesized pipeline');
    expect(parseError('{{(.a}}')).toBe('template: output:1: unclosed left paren');
    expect(parseError('{{range .a}}{{else}}{{else}}{{end}}')).toBe('template: output:1: expected end; found {{else}}');
    expect(run('{{.a | }}', {})).toBe('<no value>');
    expect(parseError('{{.metadata.name')).toBe('template: output:1: unclosed action');
    expect(parseError('{{foo .x}}')).toBe('template: output:1: function "foo" not defined');
    expect(parseError('{{range .items}}x')).toBe('template: output:1: unexpected EOF');
    expect(parseError('x{{end}}')).toBe('template: output:1: unexpected {{end}}');
  });

  it("execution errors are Go's, with line and column (a field chain is placed at its second field), as kubectl 1.32 prints them", () => {
    expect(execError('{{.metadata.annotations.x}}', svc)).toBe('template: output:1:11: executing "output" at <.metadata.annotations.x>: nil pointer evaluating interface {}.x');
    expect(execError('{{.spec.missing}}', svc, true)).toBe('template: output:1:7: executing "output" at <.spec.missing>: map has no entry for key "missing"');
    expect(execError('{{.spec.type}} {{.spec.nope}}', svc, true)).toBe('template: output:1:22: executing "output" at <.spec.nope>: map has no entry for key "nope"');
    expect(execError('{{$x := .spec}}{{$x.nope.y}}', svc, true)).toBe('template: output:1:19: executing "output" at <$x.nope.y>: map has no entry for key "nope"');
    expect(execError('{{(index .spec.ports 0).nope.x}}', svc, true)).toBe('template: output:1:21: executing "output" at <0>: map has no entry for key "nope"');
    expect(execError('{{index .spec.ports 3}}', svc)).toBe('template: output:1:2: executing "output" at <index .spec.ports 3>: error calling index: index out of range: 3');
    expect(execError('{{len .spec.nope}}', svc)).toBe('template: output:1:2: executing "output" at <len .spec.nope>: error calling len: reflect: call of reflect.Value.Type on zero Value');
    expect(execError('{{len .metadata.annotations}}', svc)).toBe('template: output:1:2: executing "output" at <len .metadata.annotations>: error calling len: len of nil pointer');
    expect(execError('{{.spec.type.x}}', svc)).toBe('template: output:1:7: executing "output" at <.spec.type.x>: can\'t evaluate field x in type interface {}');
  });
});
