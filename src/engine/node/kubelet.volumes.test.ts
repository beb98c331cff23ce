/**
 * ConfigMap volumes on the node's disk as `ls -l` and `cat` show them: the kubelet's AtomicWriter
 * (pkg/volume/util/atomic_writer.go) rewrites a volume only when its payload changed, so an
 * unchanged file keeps its mtime across pod syncs, and an edited ConfigMap reaches the file.
 */
import { describe, it, expect } from 'vitest';
import { newKubeletFixture } from './kubelet.testkit';
import type { KubeObject } from '../api/types';

describe('configMap volume files on the node', () => {
  it('keep their mtime while the ConfigMap is unchanged, and change when it is edited', () => {
    const fx = newKubeletFixture({ load: ['nginx:1.27'] });
    fx.run(30_000); // node registered and Ready
    fx.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { 'index.html': 'v1' } } as KubeObject);
    const pod = fx.createPod(
      {
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          containers: [{ name: 'web', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', volumeMounts: [{ name: 'html', mountPath: '/usr/share/nginx/html' }] }],
          volumes: [{ name: 'html', configMap: { name: 'web' } }],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(20_000);
    expect(fx.pod('web')?.status?.phase).toBe('Running');
    const fs = fx.node('k8s-lab-worker').machine.fs;
    const file = `/var/lib/kubelet/pods/${pod.metadata.uid}/volumes/kubernetes.io~configmap/html/index.html`;
    expect(fs.readFile(file)).toBe('v1');
    const written = fs.stat(file).mtime;
    fx.run(3 * 60_000); // several periodic pod syncs
    expect(fs.readFile(file)).toBe('v1');
    expect(fs.stat(file).mtime).toBe(written);

    const cm = fx.api.get('configmaps', 'default', 'web');
    fx.api.update({ ...cm, data: { 'index.html': 'v2' } });
    fx.run(3 * 60_000);
    expect(fs.readFile(file)).toBe('v2');
    expect(fs.stat(file).mtime).toBeGreaterThan(written);
  });

  it('are written again when changed or removed on the node, though the ConfigMap is unchanged', () => {
    const fx = newKubeletFixture({ load: ['nginx:1.27'] });
    fx.run(30_000);
    fx.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { 'index.html': 'v1', 'extra.txt': 'x' } } as KubeObject);
    const pod = fx.createPod(
      {
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          containers: [{ name: 'web', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', volumeMounts: [{ name: 'html', mountPath: '/usr/share/nginx/html' }] }],
          volumes: [{ name: 'html', configMap: { name: 'web' } }],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(20_000);
    const fs = fx.node('k8s-lab-worker').machine.fs;
    const dir = `/var/lib/kubelet/pods/${pod.metadata.uid}/volumes/kubernetes.io~configmap/html`;
    expect(fs.readFile(`${dir}/index.html`)).toBe('v1');
    fx.run(2 * 60_000); // periodic syncs that change nothing
    fs.writeFile(`${dir}/index.html`, 'tampered');
    fx.run(2 * 60_000);
    expect(fs.readFile(`${dir}/index.html`)).toBe('v1');
    fs.rm(`${dir}/extra.txt`);
    fx.run(2 * 60_000);
    expect(fs.readFile(`${dir}/extra.txt`)).toBe('x');
    fs.writeFile(`${dir}/stray`, 's');
    fx.run(2 * 60_000);
    expect(fs.exists(`${dir}/stray`)).toBe(false);
    fs.rm(dir, { recursive: true });
    fx.run(2 * 60_000);
    expect(fs.readFile(`${dir}/index.html`)).toBe('v1');
  });

  it('emptyDir and hostPath (DirectoryOrCreate) directories removed on the node are made again by the next periodic sync', () => {
    const fx = newKubeletFixture({ load: ['nginx:1.27'] });
    fx.run(30_000);
    const pod = fx.createPod(
      {
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              imagePullPolicy: 'IfNotPresent',
              volumeMounts: [
                { name: 'scratch', mountPath: '/scratch' },
                { name: 'host', mountPath: '/host' },
              ],
            },
          ],
          volumes: [
            { name: 'scratch', emptyDir: {} },
            { name: 'host', hostPath: { path: '/srv/web-data', type: 'DirectoryOrCreate' } },
          ],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(20_000);
    expect(fx.pod('web')?.status?.phase).toBe('Running');
    const fs = fx.node('k8s-lab-worker').machine.fs;
    const scratch = `/var/lib/kubelet/pods/${pod.metadata.uid}/volumes/kubernetes.io~empty-dir/scratch`;
    expect(fs.isDirectory(scratch)).toBe(true);
    expect(fs.isDirectory('/srv/web-data')).toBe(true);
    fx.run(2 * 60_000); // periodic syncs that change nothing
    fs.rm(scratch, { recursive: true });
    fs.rm('/srv/web-data', { recursive: true });
    fx.run(2 * 60_000);
    expect(fs.isDirectory(scratch)).toBe(true);
    expect(fs.isDirectory('/srv/web-data')).toBe(true);
  });
});
