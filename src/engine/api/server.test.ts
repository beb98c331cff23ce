import { describe, it, expect, beforeEach } from 'vitest';
import { Clock, Rng, NAME_ALPHABET } from '../clock';
import { ApiServer } from './server';
import { ApiError } from './errors';
import type { KubeObject, WatchEvent } from './types';

function newApi(seed = 1): { api: ApiServer; clock: Clock } {
  const clock = new Clock();
  const api = new ApiServer(clock, new Rng(seed));
  return { api, clock };
}

function sa(ns: string, name = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } };
}

function pod(name: string, extra: Partial<KubeObject['spec']> = {}, labels: Record<string, string> = { app: 'web' }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...extra },
  };
}

function cm(name: string, data: Record<string, string> = { a: '1' }, ns = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data };
}

function deployment(name: string, replicas = 2): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    },
  };
}

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('kube-apiserver bootstrap', () => {
  // pkg/controlplane/controller/systemnamespaces creates these four on start.
  it('creates the system namespaces and the kubernetes Service at 10.96.0.1', () => {
    const { api } = newApi();
    const names = api.list('namespaces').items.map((n) => n.metadata.name);
    expect(names).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(api.get('services', 'default', 'kubernetes').spec.clusterIP).toBe('10.96.0.1');
    expect(api.get('namespaces', undefined, 'default').metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'default' });
    expect(api.get('priorityclasses', undefined, 'system-node-critical').value).toBe(2000001000);
  });
});

describe('metadata on create (reference 1.1, 1.4)', () => {
  let api: ApiServer;
  beforeEach(() => {
    api = newApi().api;
    api.create(sa('default'));
  });

  it('stamps uid (v4), resourceVersion from one counter, creationTimestamp, generation 1', () => {
    const a = api.create(deployment('web'));
    const b = api.create(cm('conf'));
    expect(a.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number(b.metadata.resourceVersion)).toBe(Number(a.metadata.resourceVersion) + 1);
    expect(a.metadata.creationTimestamp).toBe('2026-01-05T06:00:00Z');
    expect(a.metadata.generation).toBe(1);
    expect(b.metadata.generation).toBeUndefined(); // ConfigMaps carry no generation
  });

  it('generateName appends 5 chars of the safe alphabet, prefix cut to 58', () => {
    const p = pod('');
    delete p.metadata.name;
    p.metadata.generateName = 'catalog-58544d89f4-';
    const created = api.create(p);
    expect(created.metadata.name).toMatch(new RegExp(`^catalog-58544d89f4-[${NAME_ALPHABET}]{5}$`));
    const long = cm('');
    delete long.metadata.name;
    long.metadata.generateName = 'x'.repeat(70);
    expect(api.create(long).metadata.name).toHaveLength(63);
  });

  it('refuses a duplicate name with AlreadyExists, as kubectl prints it', () => {
    api.create(cm('conf'));
    const e = thrown(() => api.create(cm('conf')));
    expect(e.code).toBe(409);
    expect(e.kubectlMessage()).toBe('Error from server (AlreadyExists): configmaps "conf" already exists');
  });

  it('refuses objects in a namespace that does not exist (NamespaceLifecycle)', () => {
    const e = thrown(() => api.create(cm('x', {}, 'nope')));
    expect(e.kubectlMessage()).toBe('Error from server (NotFound): namespaces "nope" not found');
  });

  it('refuses a pod whose ServiceAccount is missing (ServiceAccount admission)', () => {
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    const p = pod('web');
    p.metadata.namespace = 'shop';
    const e = thrown(() => api.create(p));
    expect(e.kubectlMessage()).toBe(
      'Error from server (Forbidden): pods "web" is forbidden: error looking up service account shop/default: serviceaccount "default" not found',
    );
  });

  it('defaults a bare Pod as section 12 lists and starts it Pending with a QoS class', () => {
    const p = api.create(pod('web'));
    expect(p.spec.restartPolicy).toBe('Always');
    expect(p.spec.terminationGracePeriodSeconds).toBe(30);
    expect(p.spec.dnsPolicy).toBe('ClusterFirst');
    expect(p.spec.schedulerName).toBe('default-scheduler');
    expect(p.spec.serviceAccountName).toBe('default');
    expect(p.spec.priority).toBe(0);
    expect(p.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(p.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    expect(p.spec.volumes[0].name).toMatch(new RegExp(`^kube-api-access-[${NAME_ALPHABET}]{5}$`));
    expect(p.status.phase).toBe('Pending');
  });

  it('a priorityClassName sets spec.priority; an unknown class is refused', () => {
    const p = api.create(pod('cp', { priorityClassName: 'system-node-critical' }));
    expect(p.spec.priority).toBe(2000001000);
    const e = thrown(() => api.create(pod('x', { priorityClassName: 'gold' })));
    expect(e.kubectlMessage()).toBe('Error from server (Forbidden): pods "x" is forbidden: no PriorityClass with name gold was found');
  });
});

describe('validation errors are Status objects kubectl prints (reference 11)', () => {
  it('selector not matching template labels', () => {
    const { api } = newApi();
    const d = deployment('web');
    d.spec.template.metadata.labels = { app: 'other' };
    const e = thrown(() => api.create(d));
    expect(e.code).toBe(422);
    expect(e.status.details?.causes?.[0].field).toBe('spec.template.metadata.labels');
    expect(e.kubectlMessage()).toBe('The Deployment "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`');
    expect(api.tryGet('deployments', 'default', 'web')).toBeUndefined();
  });

  it('an invalid name', () => {
    const { api } = newApi();
    const e = thrown(() => api.create(cm('My_App')));
    expect(e.kubectlMessage()).toMatch(/^The ConfigMap "My_App" is invalid: metadata.name: Invalid value: "My_App": a lowercase RFC 1123 subdomain must consist of/);
  });

  it('an unknown kind gets the RESTMapper message', () => {
    const { api } = newApi();
    const e = thrown(() => api.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }));
    expect(e.message).toBe('no matches for kind "Widget" in version "example.com/v1"');
  });
});

describe('update and optimistic concurrency', () => {
  it('a stale resourceVersion is a 409 Conflict with the registry message; nothing is written', () => {
    const { api } = newApi();
    const a = api.create(cm('conf'));
    const fresh = api.get('configmaps', 'default', 'conf');
    fresh.data = { a: '2' };
    api.update(fresh);
    a.data = { a: '3' };
    const e = thrown(() => api.update(a));
    expect(e.kubectlMessage()).toBe(
      'Error from server (Conflict): Operation cannot be fulfilled on configmaps "conf": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(api.get('configmaps', 'default', 'conf').data).toEqual({ a: '2' });
  });

  it('generation bumps on spec changes only; status writes go through /status', () => {
    const { api } = newApi();
    const d = api.create(deployment('web'));
    d.metadata.labels = { x: 'y' };
    const labelled = api.update(d);
    expect(labelled.metadata.generation).toBe(1);
    labelled.spec.replicas = 3;
    const scaled = api.update(labelled);
    expect(scaled.metadata.generation).toBe(2);
    scaled.status = { replicas: 3, observedGeneration: 2 };
    const ignored = api.update(scaled);
    expect(ignored.status).toBeUndefined(); // main resource ignores status
    const withStatus = api.updateStatus({ ...ignored, status: { replicas: 3, observedGeneration: 2 } });
    expect(withStatus.status.observedGeneration).toBe(2);
    expect(withStatus.metadata.generation).toBe(2);
  });

  it('a no-op update does not write (resourceVersion unchanged)', () => {
    const { api } = newApi();
    const c = api.create(cm('conf'));
    expect(api.update(c).metadata.resourceVersion).toBe(c.metadata.resourceVersion);
  });

  it('selectors of apps/v1 workloads are immutable', () => {
    const { api } = newApi();
    const d = api.create(deployment('web'));
    d.spec.selector = { matchLabels: { app: 'web', v: '2' } };
    d.spec.template.metadata.labels = { app: 'web', v: '2' };
    const e = thrown(() => api.update(d));
    expect(e.kubectlMessage()).toContain('spec.selector: Invalid value: {"matchLabels":{"app":"web","v":"2"}}: field is immutable');
  });

  it('scale subresource sets spec.replicas', () => {
    const { api } = newApi();
    api.create(deployment('web'));
    const s = api.updateScale('deployments', 'default', 'web', 5);
    expect(s.spec.replicas).toBe(5);
    expect(api.get('deploy', 'default', 'web').spec.replicas).toBe(5);
  });
});

describe('patch', () => {
  it('strategic merge patch merges containers by name', () => {
    const { api } = newApi();
    api.create(deployment('web'));
    const p = api.patch('deployments', 'default', 'web', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } } },
    });
    expect(p.spec.template.spec.containers).toHaveLength(1);
    expect(p.spec.template.spec.containers[0].image).toBe('nginx:1.28');
    expect(p.metadata.generation).toBe(2);
  });

  it('JSON merge patch with null removes a key', () => {
    const { api } = newApi();
    api.create(cm('conf', { a: '1', b: '2' }));
    const p = api.patch('cm', 'default', 'conf', 'merge', { data: { a: null } });
    expect(p.data).toEqual({ b: '2' });
  });
});

describe('client-side apply', () => {
  it('creates, then reports unchanged, then puts a manually scaled replicas back', () => {
    // cases.md: "kubectl apply undoes a manual scale" — the manifest's replicas wins again.
    const { api } = newApi();
    expect(api.apply(deployment('web', 2)).verb).toBe('created');
    expect(api.apply(deployment('web', 2)).verb).toBe('unchanged');
    api.updateScale('deployments', 'default', 'web', 5);
    const r = api.apply(deployment('web', 2));
    expect(r.verb).toBe('configured');
    expect(r.object.spec.replicas).toBe(2);
    expect(r.object.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toContain('"replicas":2');
  });
});

describe('deletion (reference 1.4, 4)', () => {
  it('an unscheduled pod goes at once', () => {
    const { api } = newApi();
    api.create(sa('default'));
    api.create(pod('web'));
    api.delete('pods', 'default', 'web');
    expect(api.tryGet('pods', 'default', 'web')).toBeUndefined();
  });

  it('a bound pod gets deletionTimestamp = now + grace and stays until a grace-0 delete', () => {
    const { api, clock } = newApi();
    api.create(sa('default'));
    api.create(pod('web', { nodeName: 'k8s-lab-worker' }));
    clock.advance(5000);
    const d = api.delete('pods', 'default', 'web');
    expect(d.metadata.deletionTimestamp).toBe('2026-01-05T06:00:35Z');
    expect(d.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(api.get('pods', 'default', 'web').metadata.deletionTimestamp).toBeDefined();
    api.delete('pods', 'default', 'web', { gracePeriodSeconds: 0 });
    expect(api.tryGet('pods', 'default', 'web')).toBeUndefined();
  });

  it('finalizers hold an object until they are removed; new finalizers cannot be added', () => {
    const { api } = newApi();
    const c = cm('conf');
    c.metadata.finalizers = ['example.com/hold'];
    api.create(c);
    const held = api.delete('configmaps', 'default', 'conf');
    expect(held.metadata.deletionTimestamp).toBeDefined();
    const more = api.get('configmaps', 'default', 'conf');
    more.metadata.finalizers = ['example.com/hold', 'example.com/other'];
    expect(thrown(() => api.update(more)).code).toBe(403);
    const cur = api.get('configmaps', 'default', 'conf');
    cur.metadata.finalizers = [];
    api.update(cur);
    expect(api.tryGet('configmaps', 'default', 'conf')).toBeUndefined();
  });

  it('Foreground and Orphan add their finalizers for the garbage collector', () => {
    const { api } = newApi();
    api.create(deployment('a'));
    api.create(deployment('b'));
    expect(api.delete('deployments', 'default', 'a', { propagationPolicy: 'Foreground' }).metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(api.delete('deployments', 'default', 'b', { propagationPolicy: 'Orphan' }).metadata.finalizers).toEqual(['orphan']);
    expect(api.get('deployments', 'default', 'a').metadata.deletionTimestamp).toBeDefined();
  });

  it('a namespace goes Terminating and refuses new content', () => {
    const { api } = newApi();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    const ns = api.delete('namespaces', undefined, 'shop');
    expect(ns.status.phase).toBe('Terminating');
    const e = thrown(() => api.create(cm('x', {}, 'shop')));
    expect(e.kubectlMessage()).toBe('Error from server (Forbidden): configmaps "x" is forbidden: unable to create new content in namespace shop because it is being terminated');
  });
});

describe('list and selectors', () => {
  it('filters by label (equality and set-based) and field selectors', () => {
    const { api } = newApi();
    api.create(sa('default'));
    api.create(pod('a', {}, { app: 'web', tier: 'front' }));
    api.create(pod('b', { nodeName: 'n1' }, { app: 'web', tier: 'back' }));
    api.create(pod('c', {}, { app: 'db' }));
    const names = (o: { labelSelector?: string; fieldSelector?: string }) => api.list('pods', { namespace: 'default', ...o }).items.map((p) => p.metadata.name);
    expect(names({ labelSelector: 'app=web' })).toEqual(['a', 'b']);
    expect(names({ labelSelector: 'tier in (back,middle)' })).toEqual(['b']);
    expect(names({ labelSelector: '!tier' })).toEqual(['c']);
    expect(names({ fieldSelector: 'spec.nodeName=n1' })).toEqual(['b']);
    expect(names({ fieldSelector: 'metadata.name!=a,status.phase=Pending' })).toEqual(['b', 'c']);
  });
});

describe('watch', () => {
  it('delivers events through the clock after a small latency, in order', () => {
    const { api, clock } = newApi();
    const seen: string[] = [];
    api.watch('configmaps', { namespace: 'default' }, (ev) => seen.push(`${ev.type} ${ev.object.metadata.name}`));
    const c = api.create(cm('a'));
    c.data = { a: '2' };
    api.update(c);
    api.delete('configmaps', 'default', 'a');
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a']);
  });

  it('replays from a resourceVersion, and a label selector turns transitions into ADDED/DELETED', () => {
    const { api, clock } = newApi();
    const c = api.create(cm('a'));
    const rv = c.metadata.resourceVersion!;
    c.metadata.labels = { pick: 'yes' };
    const labelled = api.update(c);
    labelled.metadata.labels = { pick: 'no' };
    api.update(labelled);
    const seen: string[] = [];
    api.watch('configmaps', { resourceVersion: rv, labelSelector: 'pick=yes' }, (ev) => seen.push(ev.type));
    clock.advance(1);
    expect(seen).toEqual(['ADDED', 'DELETED']);
  });

  it('a compacted resourceVersion gets 410 Gone (reason Expired)', () => {
    const clock = new Clock();
    const api = new ApiServer(clock, new Rng(1), { historyWindow: 5 });
    for (let i = 0; i < 20; i++) api.create(cm(`c${i}`));
    const events: WatchEvent[] = [];
    const h = api.watch('configmaps', { resourceVersion: '3' }, (ev) => events.push(ev));
    clock.advance(1);
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('ERROR');
    expect((events[0].object as unknown as { code: number; message: string }).code).toBe(410);
    expect((events[0].object as unknown as { message: string }).message).toMatch(/^too old resource version: 3 \(\d+\)$/);
    expect(h.stopped).toBe(true);
  });
});

describe('availability', () => {
  it('while kube-apiserver is down every call fails with the connection-refused line and watches end', () => {
    const { api } = newApi();
    const h = api.watch('pods', {}, () => {});
    api.setAvailability('down');
    const e = thrown(() => api.list('pods'));
    expect(e.connectionRefused).toBe(true);
    expect(e.kubectlMessage()).toBe('The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?');
    expect(h.stopped).toBe(true);
    api.setAvailability('up');
    expect(api.list('namespaces').items.length).toBe(4);
  });
});

describe('services', () => {
  it('allocates ClusterIPs from 10.96.0.0/12 and refuses a taken NodePort', () => {
    const { api } = newApi();
    const svc = (name: string, nodePort?: number): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: 'default' },
      spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80, ...(nodePort ? { nodePort } : {}) }] },
    });
    const a = api.create(svc('a', 30080));
    expect(a.spec.clusterIP).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(a.spec.ports[0].nodePort).toBe(30080);
    const e = thrown(() => api.create(svc('b', 30080)));
    expect(e.kubectlMessage()).toBe('The Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const c = api.create(svc('c'));
    expect(c.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(c.spec.ports[0].nodePort).toBeLessThanOrEqual(32767);
  });
});

describe('custom resources', () => {
  it('a CRD registers its kind; instances are validated and listed by short name', () => {
    const { api } = newApi();
    api.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
          },
        ],
      },
    });
    api.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { size: 3 } });
    expect(api.list('wd').items.map((w) => w.metadata.name)).toEqual(['w1']);
    const e = thrown(() => api.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2', namespace: 'default' }, spec: { size: 'big' } }));
    expect(e.code).toBe(422);
    api.delete('crd', undefined, 'widgets.example.com');
    expect(() => api.list('widgets')).toThrow();
  });
});

describe('write bodies: the stored object is what was sent, never the caller\'s object', () => {
  it('a /status write stores the status as sent (field order included), however much of it is unchanged', () => {
    const { api } = newApi();
    api.create(sa('default'));
    const p = api.create(pod('web'), { sharedResult: true });
    const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], hostIP: '172.18.0.3', podIPs: [{ ip: '10.244.1.2' }] };
    const s1 = api.updateStatus({ ...p, status }, { sharedResult: true });
    // Same conditions and podIPs, fields of the first condition reordered, hostIP changed.
    const body = { ...s1, status: { phase: 'Running', conditions: [{ status: 'True', type: 'Ready' }], hostIP: '172.18.0.4', podIPs: [{ ip: '10.244.1.2' }] } };
    const s2 = api.updateStatus(body, { sharedResult: true });
    expect(JSON.stringify(s2.status)).toBe(JSON.stringify(body.status));
    expect(s2.metadata.resourceVersion).not.toBe(s1.metadata.resourceVersion);
    // The caller's objects are not the stored ones: changing them changes nothing stored.
    body.status.podIPs[0].ip = '10.0.0.1';
    status.conditions[0].status = 'False';
    expect(api.get('pods', 'default', 'web').status).toEqual({ phase: 'Running', conditions: [{ status: 'True', type: 'Ready' }], hostIP: '172.18.0.4', podIPs: [{ ip: '10.244.1.2' }] });
    expect(JSON.stringify(api.get('pods', 'default', 'web').status)).toBe(JSON.stringify(s2.status));
    // An equal status (in any field order) is a no-op.
    const s3 = api.updateStatus({ ...s2, status: { podIPs: [{ ip: '10.244.1.2' }], hostIP: '172.18.0.4', conditions: [{ type: 'Ready', status: 'True' }], phase: 'Running' } }, { sharedResult: true });
    expect(s3.metadata.resourceVersion).toBe(s2.metadata.resourceVersion);
  });

  it('an update carries metadata the server owns over from the stored object, with no field left undefined', () => {
    const { api } = newApi();
    const c = api.create(cm('a'));
    const u = api.update({ ...c, metadata: { ...c.metadata, deletionTimestamp: '2026-01-05T06:00:00Z', generation: 7 }, data: { a: '2' } });
    expect(Object.keys(u.metadata)).toEqual(['name', 'namespace', 'uid', 'creationTimestamp', 'resourceVersion']);
    expect(u.metadata.resourceVersion).not.toBe(c.metadata.resourceVersion);
  });
});

describe('metadata validation on update (validated-metadata memo)', () => {
  const invalid = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      if (e instanceof ApiError) return e.message;
      throw e;
    }
    return 'accepted';
  };

  it('still rejects metadata that was stored without validation (a Deployment status write with annotations)', () => {
    const { api } = newApi();
    const d = api.create(deployment('web'));
    // The status subresource keeps a Deployment's annotations unvalidated.
    api.updateStatus({ ...d, metadata: { ...d.metadata, annotations: { 'bad key!': 'x' } }, status: { replicas: 0 } });
    const cur = api.get('deployments', 'default', 'web');
    expect(cur.metadata.annotations).toEqual({ 'bad key!': 'x' });
    expect(invalid(() => api.update({ ...cur, spec: { ...cur.spec, replicas: 3 } }))).toContain('metadata.annotations: Invalid value: "bad key!"');
  });

  it('checks changed metadata, and accepts unchanged validated metadata', () => {
    const { api } = newApi();
    const c = api.create({ ...cm('c'), metadata: { name: 'c', namespace: 'default', labels: { app: 'x' } } });
    const ok = api.update({ ...c, data: { a: '2' } });
    expect(ok.data).toEqual({ a: '2' });
    expect(invalid(() => api.update({ ...ok, metadata: { ...ok.metadata, labels: { app: 'x', 'bad key!': 'y' } } }))).toContain('metadata.labels: Invalid value: "bad key!"');
    expect(invalid(() => api.update({ ...ok, metadata: { ...ok.metadata, finalizers: ['a/b/c'] } }))).toContain('metadata.finalizers: Invalid value: "a/b/c"');
    expect(api.update({ ...ok, data: { a: '3' } }).data).toEqual({ a: '3' });
  });
});
