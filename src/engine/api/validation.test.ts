import { describe, it, expect } from 'vitest';
import { validateCreate, validateUpdate, checkDecodable } from './validation';
import { applyDefaults } from './defaults';
import { formatFieldError, errors, ApiError } from './errors';
import { Rng } from '../clock';
import type { KubeObject } from './types';

/** Default like the server, validate, and print each cause as kubectl does. */
function create(o: KubeObject): string[] {
  applyDefaults(o, { rng: new Rng(1) });
  return validateCreate(o).map(formatFieldError);
}

function update(o: KubeObject, old: KubeObject): string[] {
  applyDefaults(old, { rng: new Rng(1) });
  applyDefaults(o, { rng: new Rng(1) });
  return validateUpdate(o, old).map(formatFieldError);
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

function pod(spec: Record<string, unknown> = {}, name = 'web'): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...spec } };
}

function deployment(name = 'nginx'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
}

function job(restartPolicy?: string): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default' },
    spec: {
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } },
      template: {
        metadata: { labels: { 'batch.kubernetes.io/controller-uid': 'u1' } },
        spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'pi', image: 'perl:5.34.0' }] },
      },
    },
  };
}

describe('valid objects pass', () => {
  it('a pod, a deployment, a job, a service', () => {
    expect(create(pod())).toEqual([]);
    expect(create(deployment())).toEqual([]);
    expect(create(job('Never'))).toEqual([]);
    expect(create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }], clusterIP: '10.96.12.34' } })).toEqual([]);
  });
});

describe('metadata (apimachinery objectmeta.go; reference 11.3 names)', () => {
  it('name required unless generateName', () => {
    const p = pod();
    delete p.metadata.name;
    expect(create(p)).toEqual(['metadata.name: Required value: name or generateName is required']);
  });

  it('DNS-1123 subdomain for most kinds (the reference full example)', () => {
    // The Deployment "My_App" is invalid: metadata.name: Invalid value: "My_App": a lowercase RFC 1123 subdomain ...
    expect(create(deployment('My_App'))).toEqual([
      `metadata.name: Invalid value: "My_App": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });

  it('DNS-1123 label for Namespace, with the two spaces before `or`', () => {
    const e = create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Shop' } });
    expect(e).toEqual([
      `metadata.name: Invalid value: "Shop": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
    expect(create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop.prod' } })).toEqual(['metadata.name: Invalid value: "shop.prod": must not contain dots']);
  });

  it('DNS-1035 label for Service', () => {
    const e = create({ apiVersion: 'v1', kind: 'Service', metadata: { name: '1web' }, spec: { ports: [{ port: 80 }] } });
    expect(e).toEqual([
      `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ]);
  });

  it('too long names', () => {
    expect(create(pod({}, 'a'.repeat(254)))[0]).toBe(`metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`);
  });

  it('a generateName prefix may end in a dash', () => {
    const p = pod();
    p.metadata.generateName = 'web-';
    expect(create(p)).toEqual([]);
  });

  it('labels: key and value checks at metadata.labels', () => {
    const p = pod();
    p.metadata.labels = { 'my app': 'x', ok: '-bad' };
    expect(create(p)).toEqual([
      `metadata.labels: Invalid value: "my app": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `metadata.labels: Invalid value: "-bad": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ]);
  });

  it('annotations over 256 KiB in total', () => {
    const p = pod();
    p.metadata.annotations = { big: 'x'.repeat(256 * 1024) };
    expect(create(p)).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
  });
});

describe('pod spec (pkg/apis/core/validation ValidatePodSpec)', () => {
  it('containers required', () => {
    expect(create(pod({ containers: [] }))).toEqual(['spec.containers: Required value']);
  });

  it('container name required, DNS label, unique; image required', () => {
    expect(create(pod({ containers: [{ image: 'nginx:1' }] }))).toEqual(['spec.containers[0].name: Required value']);
    expect(create(pod({ containers: [{ name: 'web' }] }))).toEqual(['spec.containers[0].image: Required value']);
    expect(
      create(
        pod({
          containers: [
            { name: 'web', image: 'a:1' },
            { name: 'web', image: 'b:1' },
          ],
        }),
      ),
    ).toEqual(['spec.containers[1].name: Duplicate value: "web"']);
    expect(create(pod({ containers: [{ name: 'Web', image: 'a:1' }] }))[0]).toMatch(/^spec\.containers\[0\]\.name: Invalid value: "Web": a lowercase RFC 1123 label must consist of/);
  });

  it('containerPort range', () => {
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', ports: [{ containerPort: 70000 }] }] }))).toEqual([
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]);
  });

  it('restartPolicy values', () => {
    expect(create(pod({ restartPolicy: 'Sometimes' }))).toEqual(['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']);
  });

  it('requests must not exceed limits, printed as canonical quantities', () => {
    // ValidateContainerResourceRequirements: field.Invalid(reqPath, quantity.String(), "must be less than or equal to %s limit of %s")
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', resources: { requests: { cpu: '1' }, limits: { cpu: '0.5' } } }] }))).toEqual([
      'spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m',
    ]);
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } }] }))).toEqual([
      'spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi',
    ]);
  });

  it('resource names', () => {
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', resources: { limits: { gpu: '1' } } }] }))).toEqual([
      'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    ]);
  });

  it('volumeMounts must name a volume; volume names unique', () => {
    // Brief / validation.go ValidateVolumeMounts: field.NotFound(idxPath.Child("name"), mnt.Name)
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] }))).toEqual([
      'spec.containers[0].volumeMounts[0].name: Not found: "data"',
    ]);
    expect(
      create(
        pod({
          volumes: [
            { name: 'v', emptyDir: {} },
            { name: 'v', emptyDir: {} },
          ],
        }),
      ),
    ).toEqual(['spec.volumes[1].name: Duplicate value: "v"']);
    expect(create(pod({ volumes: [{ name: 'c', configMap: {} }] }))).toEqual(['spec.volumes[0].configMap.name: Required value']);
  });

  it('probes: a handler is required; liveness successThreshold must be 1', () => {
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', livenessProbe: { periodSeconds: 5 } }] }))).toEqual([
      'spec.containers[0].livenessProbe: Required value: must specify a handler type',
    ]);
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', livenessProbe: { httpGet: { port: 80 }, successThreshold: 2 } }] }))).toEqual([
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    ]);
    expect(create(pod({ containers: [{ name: 'web', image: 'a:1', readinessProbe: { httpGet: { port: '8080' } } }] }))).toEqual([
      'spec.containers[0].readinessProbe.httpGet.port: Invalid value: "8080": must contain at least one letter (a-z)',
    ]);
  });

  it('tolerations', () => {
    expect(create(pod({ tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule', tolerationSeconds: 5 }] }))).toContain(
      "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
    );
    expect(create(pod({ tolerations: [{ key: 'k', operator: 'Sometimes' }] }))).toContain('spec.tolerations[0].operator: Unsupported value: "Sometimes": supported values: "Equal", "Exists"');
  });
});

describe('workloads (pkg/apis/apps/validation, reference 11.3)', () => {
  it('selector/template labels mismatch, value as 1.34+ JSON', () => {
    const d = deployment();
    d.spec.selector = { matchLabels: { app: 'web' } };
    expect(create(d)).toEqual(['spec.template.metadata.labels: Invalid value: {"app":"nginx"}: `selector` does not match template `labels`']);
  });

  it('missing selector: Required plus the mismatch (a nil selector selects nothing)', () => {
    const d = deployment();
    delete d.spec.selector;
    expect(create(d)).toEqual(['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"nginx"}: `selector` does not match template `labels`']);
  });

  it('empty selector', () => {
    const d = deployment();
    d.spec.selector = {};
    expect(create(d)).toEqual(['spec.selector: Invalid value: {}: empty selector is invalid for deployment']);
  });

  it('replicas >= 0', () => {
    const d = deployment();
    d.spec.replicas = -1;
    expect(create(d)).toEqual(['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
  });

  it('Deployment pod template restartPolicy must be Always', () => {
    const d = deployment();
    d.spec.template.spec.restartPolicy = 'Never';
    expect(create(d)).toEqual(['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']);
  });

  it('pod template errors are prefixed spec.template.spec.', () => {
    const d = deployment();
    delete d.spec.template.spec.containers[0].image;
    expect(create(d)).toEqual(['spec.template.spec.containers[0].image: Required value']);
  });

  it('maxSurge and maxUnavailable both zero', () => {
    const d = deployment();
    d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } };
    expect(create(d)).toEqual(['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0']);
    d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '0%', maxUnavailable: '0%' } };
    expect(create(d)).toEqual(['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0']);
  });

  it('Recreate with a rollingUpdate block left over from kubectl apply', () => {
    const d = deployment();
    d.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
    expect(create(d)).toEqual(["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]);
  });

  it('DaemonSet: no Required, only the mismatch, for a missing selector', () => {
    const ds: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: { template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'x:1' }] } } },
    };
    expect(create(ds)).toEqual(['spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`']);
  });

  it('Job restartPolicy: Required with the valid values, also when Always is given', () => {
    // Confirmed on real clusters (reference 11.3).
    expect(create(job())).toEqual(['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
    expect(create(job('Always'))).toEqual(['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
    expect(create(job('OnFailure'))).toEqual([]);
  });

  it('StatefulSet selector checks use the statefulset wording', () => {
    const s: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: {}, serviceName: 'web', template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } } },
    };
    expect(create(s)).toEqual(['spec.selector: Invalid value: {}: empty selector is invalid for statefulset']);
  });
});

describe('Service (ValidateService)', () => {
  const svc = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec });

  it('ports required except for headless and ExternalName', () => {
    expect(create(svc({ selector: { app: 'web' } }))).toEqual(['spec.ports: Required value']);
    expect(create(svc({ clusterIP: 'None', selector: { app: 'web' } }))).toEqual([]);
    expect(create(svc({ type: 'ExternalName', externalName: 'db.example.com' }))).toEqual([]);
  });

  it('port range, named ports required with several ports, type values', () => {
    expect(create(svc({ ports: [{ port: 0 }] }))).toContain('spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive');
    expect(create(svc({ ports: [{ port: 80 }, { port: 443 }] }))).toEqual(['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']);
    expect(create(svc({ type: 'Magic', ports: [{ port: 80 }] }))).toContain('spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"');
  });

  it('nodePort outside the range (portallocator wording)', () => {
    expect(create(svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }))).toEqual([
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    ]);
    expect(create(svc({ ports: [{ port: 80, nodePort: 30080 }] }))).toEqual(["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
  });
});

describe('ConfigMap and Secret keys', () => {
  it('config keys (IsConfigMapKey), with the double-space examples', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { 'my key': 'v' } };
    expect(create(cm)).toEqual([
      `data[my key]: Invalid value: "my key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]);
    const s: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, type: 'kubernetes.io/tls', data: { '..x': 'eA==' } };
    expect(create(s)).toEqual(["data[..x]: Invalid value: \"..x\": must not start with '..'", 'data[tls.crt]: Required value', 'data[tls.key]: Required value']);
  });
});

describe('PriorityClass (pkg/apis/scheduling/validation)', () => {
  it('user classes are capped at 1000000000; system- names are reserved', () => {
    const pc = (name: string, value: number): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value });
    expect(create(pc('gold', 2000000000))).toEqual(['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
    expect(create(pc('gold', 1000))).toEqual([]);
    expect(create(pc('system-gold', 1000))).toEqual([
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-gold is not a known system priority class",
    ]);
    expect(create(pc('system-node-critical', 2000001000))).toEqual([]);
  });
});

describe('updates (immutability, reference 11.3)', () => {
  it('apps/v1 selector is immutable', () => {
    const old = deployment();
    const d = clone(old);
    d.spec.selector = { matchLabels: { app: 'shop-web' } };
    d.spec.template.metadata.labels = { app: 'shop-web' };
    expect(update(d, old)).toEqual(['spec.selector: Invalid value: {"matchLabels":{"app":"shop-web"}}: field is immutable']);
  });

  it('a deployment image change is fine', () => {
    const old = deployment();
    const d = clone(old);
    d.spec.template.spec.containers[0].image = 'nginx:1.28';
    expect(update(d, old)).toEqual([]);
  });

  it('pod updates: image ok; anything else is the Forbidden message with a diff', () => {
    const old = pod();
    const ok = clone(old);
    ok.spec.containers[0].image = 'nginx:1.28';
    expect(update(ok, old)).toEqual([]);
    const bad = clone(old);
    bad.spec.restartPolicy = 'Never';
    const e = update(bad, old);
    expect(e).toHaveLength(1);
    expect(e[0].split('\n')[0]).toBe(
      'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    expect(e[0]).toContain('- \tRestartPolicy: "Always",');
    expect(e[0]).toContain('+ \tRestartPolicy: "Never",');
  });

  it('pod updates may add tolerations but not add containers', () => {
    const old = pod();
    const t = clone(old);
    t.spec.tolerations = [{ key: 'x', operator: 'Exists', effect: 'NoSchedule' }];
    expect(update(t, old)).toEqual([]);
    const c = clone(old);
    c.spec.containers.push({ name: 'side', image: 'busybox:1' });
    expect(update(c, old)).toEqual(['spec.containers: Forbidden: pod updates may not add or remove containers']);
  });

  it('StatefulSet forbidden fields', () => {
    const old: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, serviceName: 'web', template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } } },
    };
    const ok = clone(old);
    ok.spec.replicas = 5;
    expect(update(ok, old)).toEqual([]);
    const bad = clone(old);
    bad.spec.serviceName = 'other';
    expect(update(bad, old)).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('Job selector and template are immutable', () => {
    const old = job('Never');
    const j = clone(old);
    j.spec.template.spec.containers[0].image = 'perl:5.36';
    const e = update(j, old);
    expect(e).toHaveLength(1);
    expect(e[0]).toMatch(/^spec\.template: Invalid value: \{.*\}: field is immutable$/);
  });

  it('ConfigMap and Secret with immutable: true', () => {
    const old: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, immutable: true, data: { a: '1' } };
    const c = clone(old);
    c.data = { a: '2' };
    expect(update(c, old)).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
    const s: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, type: 'Opaque', data: {} };
    const s2 = clone(s);
    s2.type = 'kubernetes.io/tls';
    s2.data = { 'tls.crt': 'eA==', 'tls.key': 'eA==' };
    expect(update(s2, s)).toEqual(['type: Invalid value: "kubernetes.io/tls": field is immutable']);
  });

  it('Service clusterIP may not change once set', () => {
    const old: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { ports: [{ port: 80 }], clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] } };
    const s = clone(old);
    s.spec.clusterIP = '10.96.0.11';
    expect(update(s, old)).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set']);
  });

  it('PVC: spec immutable except storage requests', () => {
    const old: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    const grow = clone(old);
    grow.spec.resources.requests.storage = '2Gi';
    expect(update(grow, old)).toEqual([]);
    const modes = clone(old);
    modes.spec.accessModes = ['ReadWriteMany'];
    const e = update(modes, old);
    expect(e[0].split('\n')[0]).toBe('spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
  });
});

describe('checkDecodable (quantities are rejected by the decoder, 400)', () => {
  it('a bad quantity in a deployment template', () => {
    const d = deployment();
    d.spec.template.spec.containers[0].resources = { limits: { memory: '1GB' } };
    let err: unknown;
    try {
      checkDecodable(d);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kubectlMessage()).toBe(
      `Error from server (BadRequest): Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
    expect(() => checkDecodable(deployment())).not.toThrow();
  });

  it('the whole Invalid error as kubectl prints it', () => {
    const d = deployment('web');
    d.spec.template.spec.restartPolicy = 'Never';
    d.spec.replicas = -1;
    applyDefaults(d, { rng: new Rng(1) });
    const e = errors.invalid('Deployment', 'apps', 'web', validateCreate(d));
    expect(e.kubectlMessage()).toBe(
      'The Deployment "web" is invalid: \n* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n* spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    );
  });
});

describe('ConfigMap keys and sizes (fast paths)', () => {
  const cm = (data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data });
  const tooLong = (data: Record<string, string>) => validateCreate(cm(data)).some((e) => e.type === 'FieldValueTooLong');

  it('counts UTF-8 bytes per code point: 2 for é, 4 for a surrogate pair, 3 for a lone surrogate', () => {
    expect(tooLong({ a: 'é'.repeat(524288) })).toBe(false);
    expect(tooLong({ a: 'é'.repeat(524288) + 'x' })).toBe(true);
    expect(tooLong({ a: '\u{1F600}'.repeat(262144) })).toBe(false);
    expect(tooLong({ a: '\u{1F600}'.repeat(262144) + 'x' })).toBe(true);
    expect(tooLong({ a: '\ud800'.repeat(349525) + 'x' })).toBe(false);
    expect(tooLong({ a: '\ud800'.repeat(349525) + 'xy' })).toBe(true);
    // Mixed and misordered surrogates: as many bytes as iterating code points counts.
    const bytes = (s: string) => {
      let n = 0;
      for (const ch of s) {
        const cp = ch.codePointAt(0)!;
        n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      }
      return n;
    };
    for (const unit of ['\udc00\ud800', '\ud800\ud800\udc00', 'é\u{1F600}\udfff']) {
      const base = unit.repeat(Math.floor(1048576 / bytes(unit)));
      for (const tail of ['', 'x', 'xy', 'xyz', 'xyzw', 'é', '\ud800']) {
        const v = base + tail;
        expect(tooLong({ a: v }), JSON.stringify([unit, tail])).toBe(bytes(v) > 1048576);
      }
    }
  });

  it('rejects the same keys with the same messages', () => {
    const keys = ['ok', 'a.b-c_D', '.', '..', '..x', '.x', 'a/b', '', 'k'.repeat(253), 'k'.repeat(254), 'a b'];
    const details = keys.map((k) => validateCreate(cm({ [k]: 'v' })).map((e) => `${e.field} ${e.detail ?? ''}`));
    expect(details).toMatchInlineSnapshot(`
      [
        [],
        [],
        [
          "data[.] must not be '.'",
        ],
        [
          "data[..] must not be '..'",
        ],
        [
          "data[..x] must not start with '..'",
        ],
        [],
        [
          "data[a/b] a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
        ],
        [
          "data[] a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
        ],
        [],
        [
          "data[kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk] must be no more than 253 characters",
        ],
        [
          "data[a b] a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
        ],
      ]
    `);
  });
});
