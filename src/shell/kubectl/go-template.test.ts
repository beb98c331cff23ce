/**
 * `kubectl get -o go-template` / `-o template` / `--template` / `go-template-file` and the
 * mutation commands' `-o go-template` (cli-runtime genericclioptions/template_flags.go,
 * kubectl/pkg/cmd/get/get_flags.go, printers/template.go), as the Kubernetes Basics tutorial
 * types them.
 */
import { describe, expect, it } from 'vitest';
import { bench } from './testing';

const SVC = `apiVersion: v1
kind: Service
metadata:
  name: kubernetes-bootcamp
spec:
  type: NodePort
  selector: {app: kubernetes-bootcamp}
  ports:
  - port: 8080
    nodePort: 31127
`;

function withObjects() {
  const b = bench({ files: { 'svc.yaml': SVC, 't.tmpl': '{{- range .items -}}\n{{ .metadata.name }}\n{{ end -}}\n' } });
  expect(b.run('kubectl apply -f svc.yaml').code).toBe(0);
  expect(b.run('kubectl create configmap b --from-literal=k=v').code).toBe(0);
  expect(b.run('kubectl create configmap a --from-literal=k=v').code).toBe(0);
  return b;
}

describe('kubectl -o go-template', () => {
  it("the tutorial's lines: -o go-template --template '{{range .items}}...' and -o go-template='{{(index .spec.ports 0).nodePort}}'", () => {
    const b = withObjects();
    expect(b.run(`kubectl get configmaps -o go-template --template '{{range .items}}{{.metadata.name}}{{"\\n"}}{{end}}'`)).toEqual({ stdout: 'a\nb\n', stderr: '', code: 0 });
    expect(b.run(`kubectl get services/kubernetes-bootcamp -o go-template='{{(index .spec.ports 0).nodePort}}'`)).toEqual({ stdout: '31127', stderr: '', code: 0 });
  });

  it('-o template, --template alone (no -o), go-template-file, and a missing template file', () => {
    const b = withObjects();
    expect(b.run(`kubectl get svc kubernetes-bootcamp -o template --template={{.spec.type}}`).stdout).toBe('NodePort');
    expect(b.run(`kubectl get svc kubernetes-bootcamp --template={{.spec.type}}`).stdout).toBe('NodePort');
    expect(b.run('kubectl get cm -o go-template-file=t.tmpl').stdout).toBe('a\nb\n');
    expect(b.run('kubectl get cm -o go-template-file --template=t.tmpl').stdout).toBe('a\nb\n');
    expect(b.run('kubectl get cm -o go-template-file=nope.tmpl')).toEqual({ stdout: '', stderr: 'error: error reading --template nope.tmpl, open nope.tmpl: no such file or directory\n', code: 1 });
  });

  it('template errors: none given, parse errors before any request, execution errors with the debugging report', () => {
    const b = withObjects();
    expect(b.run('kubectl get svc -o go-template')).toEqual({ stdout: '', stderr: 'error: template format specified but no template given\n', code: 1 });
    expect(b.run(`kubectl get svc nope -o go-template='{{.metadata.name'`)).toEqual({ stdout: '', stderr: 'error: error parsing template {{.metadata.name, template: output:1: unclosed action\n', code: 1 });
    const r = b.run(`kubectl get svc kubernetes-bootcamp -o go-template='{{.spec.nope}} {{.spec.type}}'`);
    expect(r).toEqual({ stdout: '<no value> NodePort', stderr: '', code: 0 });
    const e = b.run(`kubectl get svc kubernetes-bootcamp -o go-template='{{.spec.type}} {{.spec.nope}}' --allow-missing-template-keys=false`);
    expect(e.code).toBe(1);
    expect(e.stdout).toMatch(/^NodePort Error executing template: template: output:1:22: executing "output" at <\.spec\.nope>: map has no entry for key "nope"\. Printing more information for debugging the template:\n\ttemplate was:\n\t\t\{\{\.spec\.type\}\} \{\{\.spec\.nope\}\}\n\traw data was:\n\t\t\{/);
    expect(e.stderr).toBe('error: error executing template "{{.spec.type}} {{.spec.nope}}": template: output:1:22: executing "output" at <.spec.nope>: map has no entry for key "nope"\n');
  });

  it('mutation commands print the changed object through the template', () => {
    const b = withObjects();
    expect(b.run(`kubectl label cm a tier=x -o go-template={{.metadata.labels.tier}}`)).toEqual({ stdout: 'x', stderr: '', code: 0 });
  });
});
