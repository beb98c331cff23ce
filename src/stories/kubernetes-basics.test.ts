/**
 * The kubernetes.io "Learn Kubernetes Basics" tutorial (modules 2-6: deploy, explore, expose,
 * scale, update) typed on the product's cluster, line for line as the tutorial gives them:
 * `kubectl create deployment kubernetes-bootcamp --image=gcr.io/google-samples/kubernetes-bootcamp:v1`,
 * the POD_NAME and NODE_PORT go-templates, `kubectl logs`, `exec -- env`, `exec -- cat server.js`,
 * `curl` inside the pod, the v2 rolling update from docker.io/jocatalin/kubernetes-bootcamp:v2,
 * the broken v10 update and `rollout undo`. The app's answers and log lines are server.js's
 * (`Hello Kubernetes bootcamp! | Running on: <pod> | v=1`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { rows, story, type Story } from './storykit';

describe('Learn Kubernetes Basics on the kind cluster', { timeout: 180_000 }, () => {
  let s: Story;
  let pod = '';
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 180_000);

  it('deploys the bootcamp app; the go-template finds the pod; the app logs its start and answers v=1', () => {
    expect(s.out('kubectl create deployment kubernetes-bootcamp --image=gcr.io/google-samples/kubernetes-bootcamp:v1')).toBe('deployment.apps/kubernetes-bootcamp created\n');
    s.run('sleep 15\n');
    expect(rows(s.out('kubectl get deployments'))).toEqual(['NAME | READY | UP-TO-DATE | AVAILABLE | AGE', 'kubernetes-bootcamp | 1/1 | 1 | 1 | 15s']);
    s.run(`export POD_NAME="$(kubectl get pods -o go-template --template '{{range .items}}{{.metadata.name}}{{"\\n"}}{{end}}')"\n`);
    const name = s.out('echo Name of the Pod: $POD_NAME');
    expect(name).toMatch(/^Name of the Pod: kubernetes-bootcamp-[a-z0-9]+-[a-z0-9]{5}\n$/);
    pod = name.trim().split(' ').pop()!;
    const logs = s.out('kubectl logs "$POD_NAME"');
    expect(logs).toMatch(new RegExp(`^Kubernetes Bootcamp App Started At: 2\\d{3}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\| Running On:  ${pod} \\n\\n$`));
    const env = s.out('kubectl exec "$POD_NAME" -- env');
    expect(env).toContain(`HOSTNAME=${pod}\n`);
    expect(env).toContain('NPM_CONFIG_LOGLEVEL=info\n');
    expect(env).toContain('NODE_VERSION=6.3.1\n');
    expect(s.out('kubectl exec "$POD_NAME" -- cat server.js')).toContain('  response.end(" | v=1\\n");\n');
    expect(s.out('kubectl exec "$POD_NAME" -- curl -s http://localhost:8080')).toBe(`Hello Kubernetes bootcamp! | Running on: ${pod} | v=1\n`);
    expect(s.out('kubectl logs "$POD_NAME" --tail=1')).toMatch(new RegExp(`^Running On: ${pod} \\| Total Requests: 1 \\| App Uptime: \\d+(\\.\\d+)? seconds \\| Log Time: 2\\d{3}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\n$`));
  });

  it('exposes it as a NodePort; the tutorial reads the port with a go-template', () => {
    expect(s.out('kubectl expose deployment/kubernetes-bootcamp --type="NodePort" --port 8080')).toBe('service/kubernetes-bootcamp exposed\n');
    s.run(`export NODE_PORT="$(kubectl get services/kubernetes-bootcamp -o go-template='{{(index .spec.ports 0).nodePort}}')"\n`);
    const port = s.out('echo "NODE_PORT=$NODE_PORT"');
    expect(port).toMatch(/^NODE_PORT=3\d{4}\n$/);
    expect(port.trim().split('=')[1]).toBe(s.out('kubectl get svc kubernetes-bootcamp -o jsonpath={.spec.ports[0].nodePort}').trim());
    expect(s.out(`kubectl label pods "$POD_NAME" version=v1`)).toBe(`pod/${pod} labeled\n`);
    expect(rows(s.out('kubectl get pods -l version=v1 -o name'))).toEqual([`pod/${pod}`]);
  });

  it('updates to v2, breaks it with v10 (ImagePullBackOff), and rolls back', () => {
    s.run('kubectl scale deployments/kubernetes-bootcamp --replicas=4\nsleep 20\n');
    expect(s.out('kubectl set image deployments/kubernetes-bootcamp kubernetes-bootcamp=docker.io/jocatalin/kubernetes-bootcamp:v2')).toBe('deployment.apps/kubernetes-bootcamp image updated\n');
    expect(s.out('kubectl rollout status deployments/kubernetes-bootcamp')).toMatch(/deployment "kubernetes-bootcamp" successfully rolled out\n$/);
    const v2pod = s.out(`kubectl get pods -l app=kubernetes-bootcamp --field-selector=status.phase=Running -o jsonpath='{.items[?(@.spec.containers[0].image=="docker.io/jocatalin/kubernetes-bootcamp:v2")].metadata.name}'`).split(' ')[0];
    expect(s.out(`kubectl exec ${v2pod} -- curl -s http://localhost:8080`)).toBe(`Hello Kubernetes bootcamp! | Running on: ${v2pod} | v=2\n`);
    s.run('kubectl set image deployments/kubernetes-bootcamp kubernetes-bootcamp=gcr.io/google-samples/kubernetes-bootcamp:v10\nsleep 30\n');
    const statuses = rows(s.out('kubectl get pods')).slice(1).map((r) => r.split(' | ')[2]);
    expect(statuses.filter((x) => x === 'ImagePullBackOff' || x === 'ErrImagePull').length).toBeGreaterThan(0);
    expect(s.out('kubectl rollout undo deployments/kubernetes-bootcamp')).toBe('deployment.apps/kubernetes-bootcamp rolled back\n');
    s.run('kubectl rollout status deployments/kubernetes-bootcamp\nsleep 40\n');
    const images = s.out(`kubectl get pods -o go-template='{{range .items}}{{(index .spec.containers 0).image}}{{"\\n"}}{{end}}'`).trim().split('\n');
    expect(new Set(images)).toEqual(new Set(['docker.io/jocatalin/kubernetes-bootcamp:v2']));
    expect(images.length).toBe(4);
  });
});
