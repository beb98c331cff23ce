/**
 * The node filesystem: what `ls`, `cat`, `mv`, `cp`, `rm`, `mkdir`, `stat` print on a kind node
 * (GNU coreutils 9.1 wording), change notification for the kubelet's manifest directory, and the
 * layout `kind create cluster` leaves on a node.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EPOCH_MS } from '../clock';
import { FileSystem, FsError, formatLsLong, kindNodeFilesystem, modeString, type FsEvent } from './fs';

function errorOf(fn: () => unknown): FsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FsError) return e;
    throw e;
  }
  throw new Error('expected an FsError');
}

describe('FileSystem errors, as coreutils prints them', () => {
  const fs = new FileSystem();
  fs.mkdir('/etc/kubernetes/manifests', { parents: true });
  fs.writeFile('/etc/hostname', 'k8s-lab-worker\n');

  it('ls / cat / stat of a missing path', () => {
    expect(errorOf(() => fs.ls('/x')).message).toBe("ls: cannot access '/x': No such file or directory");
    expect(errorOf(() => fs.cat('/x')).message).toBe('cat: /x: No such file or directory');
    expect(errorOf(() => fs.stat('/x')).message).toBe("stat: cannot statx '/x': No such file or directory");
    expect(errorOf(() => fs.cat('/x')).code).toBe('ENOENT');
  });

  it('cat of a directory, a path through a file', () => {
    expect(errorOf(() => fs.cat('/etc')).message).toBe('cat: /etc: Is a directory');
    expect(errorOf(() => fs.ls('/etc/hostname/x')).message).toBe("ls: cannot access '/etc/hostname/x': Not a directory");
  });

  it('rm: missing, directory without -r, -f, and the root failsafe', () => {
    expect(errorOf(() => fs.rm('/nope')).message).toBe("rm: cannot remove '/nope': No such file or directory");
    expect(errorOf(() => fs.rm('/etc/kubernetes')).message).toBe("rm: cannot remove '/etc/kubernetes': Is a directory");
    expect(() => fs.rm('/nope', { force: true })).not.toThrow();
    expect(errorOf(() => fs.rm('/', { recursive: true })).message).toBe(
      "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe",
    );
  });

  it('mv / cp / mkdir / touch failures', () => {
    expect(errorOf(() => fs.mv('/x', '/y')).message).toBe("mv: cannot stat '/x': No such file or directory");
    expect(errorOf(() => fs.mv('/etc/hostname', '/nope/h')).message).toBe("mv: cannot move '/etc/hostname' to '/nope/h': No such file or directory");
    expect(errorOf(() => fs.mv('/etc/hostname', '/nodir/')).message).toBe("mv: cannot move '/etc/hostname' to '/nodir/': Not a directory");
    expect(errorOf(() => fs.mv('/etc', '/etc/kubernetes')).message).toBe("mv: cannot move '/etc' to a subdirectory of itself, '/etc/kubernetes/etc'");
    expect(errorOf(() => fs.cp('/x', '/y')).message).toBe("cp: cannot stat '/x': No such file or directory");
    expect(errorOf(() => fs.cp('/etc', '/tmp2')).message).toBe("cp: -r not specified; omitting directory '/etc'");
    expect(errorOf(() => fs.mkdir('/a/b')).message).toBe("mkdir: cannot create directory '/a/b': No such file or directory");
    expect(errorOf(() => fs.mkdir('/etc')).message).toBe("mkdir: cannot create directory '/etc': File exists");
    expect(errorOf(() => fs.touch('/a/b')).message).toBe("touch: cannot touch '/a/b': No such file or directory");
    expect(errorOf(() => fs.writeFile('/a/b', 'x')).message).toBe('sh: 1: cannot create /a/b: Directory nonexistent');
  });

  it('ls command: stdout for what exists, stderr and exit 2 for what does not', () => {
    const r = fs.lsCommand(['/etc/kubernetes', '/missing'], {}, DEFAULT_EPOCH_MS, DEFAULT_EPOCH_MS);
    expect(r.stdout).toBe('/etc/kubernetes:\nmanifests\n');
    expect(r.stderr).toBe("ls: cannot access '/missing': No such file or directory\n");
    expect(r.exitCode).toBe(2);
  });
});

describe('FileSystem operations', () => {
  it('mv keeps content and mtime; cp gets a new mtime; rm -r removes a tree', () => {
    let now = 1000;
    const fs = new FileSystem(() => now);
    fs.mkdir('/etc/kubernetes/manifests', { parents: true });
    fs.mkdir('/root');
    fs.writeFile('/etc/kubernetes/manifests/kube-scheduler.yaml', 'kind: Pod\n', { mode: 0o600 });
    now = 5000;
    fs.mv('/etc/kubernetes/manifests/kube-scheduler.yaml', '/root/');
    expect(fs.cat('/root/kube-scheduler.yaml')).toBe('kind: Pod\n');
    expect(fs.stat('/root/kube-scheduler.yaml').mtime).toBe(1000);
    expect(fs.stat('/root/kube-scheduler.yaml').mode).toBe(0o600);
    expect(fs.exists('/etc/kubernetes/manifests/kube-scheduler.yaml')).toBe(false);
    fs.cp('/root/kube-scheduler.yaml', '/tmp.yaml');
    expect(fs.stat('/tmp.yaml').mtime).toBe(5000);
    fs.cp('/etc', '/etc-copy', { recursive: true });
    expect(fs.isDirectory('/etc-copy/kubernetes/manifests')).toBe(true);
    fs.rm('/etc-copy', { recursive: true });
    expect(fs.exists('/etc-copy')).toBe(false);
  });

  it('follows symbolic links, relative and absolute (Debian 12 merged /usr)', () => {
    const fs = kindNodeFilesystem({ nodeName: 'k8s-lab-worker', role: 'worker' });
    expect(fs.cat('/etc/os-release')).toContain('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"');
    expect(fs.readlink('/etc/os-release')).toBe('../usr/lib/os-release');
    expect(fs.isFile('/sbin/init')).toBe(true);
    expect(fs.isFile('/bin/sh')).toBe(true);
    expect(fs.lstat('/bin').type).toBe('symlink');
    expect(fs.stat('/bin').type).toBe('dir');
  });

  it('watch reports create, modify, delete and moves in a directory (inotify-like), synchronously', () => {
    const fs = new FileSystem();
    fs.mkdir('/etc/kubernetes/manifests', { parents: true });
    fs.mkdir('/root');
    const seen: string[] = [];
    const off = fs.watch('/etc/kubernetes/manifests', (e: FsEvent) => seen.push(`${e.type} ${e.name}`));
    fs.writeFile('/etc/kubernetes/manifests/etcd.yaml', 'a');
    fs.appendFile('/etc/kubernetes/manifests/etcd.yaml', 'b');
    fs.mv('/etc/kubernetes/manifests/etcd.yaml', '/root');
    fs.mv('/root/etcd.yaml', '/etc/kubernetes/manifests/etcd.yaml');
    fs.rm('/etc/kubernetes/manifests/etcd.yaml');
    fs.writeFile('/etc/other', 'not watched');
    off();
    fs.writeFile('/etc/kubernetes/manifests/x.yaml', 'after unwatch');
    expect(seen).toEqual(['create etcd.yaml', 'modify etcd.yaml', 'moved_from etcd.yaml', 'moved_to etcd.yaml', 'delete etcd.yaml']);
  });

  it('ls -l lines: mode, links, owner, size, time (recent: HH:MM; old: year), link targets', () => {
    const epoch = DEFAULT_EPOCH_MS;
    const fs = new FileSystem(() => -60_000);
    fs.mkdir('/d');
    fs.writeFile('/d/admin.conf', 'x'.repeat(5652), { mode: 0o600 });
    fs.symlink('/d/admin.conf', '/d/link');
    const text = formatLsLong(fs.ls('/d'), epoch + 300_000, epoch);
    expect(text).toBe('total 8\n-rw------- 1 root root 5652 Jan  5 05:59 admin.conf\nlrwxrwxrwx 1 root root   13 Jan  5 05:59 link -> /d/admin.conf\n');
    const old = formatLsLong([fs.stat('/d/admin.conf')], epoch + 365 * 86400_000, epoch, false);
    expect(old).toBe('-rw------- 1 root root 5652 Jan  5  2026 admin.conf\n');
    expect(modeString('dir', 0o1777)).toBe('drwxrwxrwt');
  });
});

describe('kindNodeFilesystem', () => {
  const cp = kindNodeFilesystem({ nodeName: 'k8s-lab-control-plane', role: 'control-plane' });
  const worker = kindNodeFilesystem({ nodeName: 'k8s-lab-worker', role: 'worker' });

  it('control plane: kubeadm init kubeconfigs and the full pki; manifests/ empty for the cluster wiring', () => {
    expect(cp.readdir('/etc/kubernetes')).toEqual([
      'admin.conf',
      'controller-manager.conf',
      'kubelet.conf',
      'manifests',
      'pki',
      'scheduler.conf',
      'super-admin.conf',
    ]);
    expect(cp.readdir('/etc/kubernetes/manifests')).toEqual([]);
    expect(cp.readdir('/etc/kubernetes/pki/etcd')).toEqual(['ca.crt', 'ca.key', 'healthcheck-client.crt', 'healthcheck-client.key', 'peer.crt', 'peer.key', 'server.crt', 'server.key']);
    expect(cp.stat('/etc/kubernetes/admin.conf').mode).toBe(0o600);
    expect(cp.cat('/etc/kubernetes/admin.conf')).toContain('server: https://k8s-lab-control-plane:6443');
    expect(cp.cat('/etc/kubernetes/admin.conf')).toContain('current-context: kubernetes-admin@k8s-lab');
  });

  it('worker: kubelet.conf and the CA only (kubeadm join deletes bootstrap-kubelet.conf)', () => {
    expect(worker.readdir('/etc/kubernetes')).toEqual(['kubelet.conf', 'manifests', 'pki']);
    expect(worker.readdir('/etc/kubernetes/pki')).toEqual(['ca.crt']);
    expect(worker.cat('/etc/kubernetes/kubelet.conf')).toContain('client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem');
    expect(worker.isFile('/var/lib/kubelet/pki/kubelet-client-current.pem')).toBe(true);
  });

  it('KubeletConfiguration as kubeadm writes it for kind', () => {
    const c = worker.cat('/var/lib/kubelet/config.yaml');
    for (const line of [
      'kind: KubeletConfiguration',
      'staticPodPath: /etc/kubernetes/manifests',
      'cgroupDriver: systemd',
      'clusterDomain: cluster.local',
      '- 10.96.0.10',
      '  imagefs.available: 0%',
      '  nodefs.available: 0%',
      '  nodefs.inodesFree: 0%',
      'failSwapOn: false',
      'imageGCHighThresholdPercent: 100',
    ])
      expect(c.split('\n')).toContain(line);
  });

  it('kubeadm-flags.env and /etc/default/kubelet give the kubelet its command line', () => {
    expect(worker.cat('/var/lib/kubelet/kubeadm-flags.env')).toBe(
      'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock --node-ip=172.18.0.3 --node-labels= --pod-infra-container-image=registry.k8s.io/pause:3.10.1 --provider-id=kind://docker/k8s-lab/k8s-lab-worker"\n',
    );
    expect(worker.cat('/etc/default/kubelet')).toBe('KUBELET_EXTRA_ARGS=--runtime-cgroups=/system.slice/containerd.service\n');
  });

  it("systemd units: kind's kubelet.service with its drop-ins, containerd.service, both enabled", () => {
    expect(worker.readdir('/etc/systemd/system/kubelet.service.d')).toEqual(['10-kubeadm.conf', '11-kind.conf']);
    const unit = worker.cat('/etc/systemd/system/kubelet.service');
    expect(unit).toContain('ConditionPathExists=/var/lib/kubelet/config.yaml');
    expect(unit).toContain('StartLimitInterval=0');
    expect(unit).toContain('RestartSec=10\n');
    expect(unit).toContain('Slice=kubelet.slice');
    expect(worker.readlink('/etc/systemd/system/multi-user.target.wants/kubelet.service')).toBe('/etc/systemd/system/kubelet.service');
    expect(worker.readlink('/etc/systemd/system/multi-user.target.wants/containerd.service')).toBe('/etc/systemd/system/containerd.service');
    // kind's own RestartSec when asked for; the deb package's unit (the seed's) verbatim
    expect(kindNodeFilesystem({ nodeName: 'n-worker', role: 'worker', kubeletRestartSec: 1 }).cat('/etc/systemd/system/kubelet.service')).toContain(
      '# NOTE: kind deviates from upstream here with a lower RestartSec\nRestartSec=1s\n',
    );
    const up = kindNodeFilesystem({ nodeName: 'n-worker', role: 'worker', kubeletUnit: 'upstream' });
    expect(up.cat('/etc/systemd/system/kubelet.service')).toContain('Documentation=https://kubernetes.io/docs/\nWants=network-online.target\nAfter=network-online.target');
    expect(up.readdir('/etc/systemd/system/kubelet.service.d')).toEqual(['10-kubeadm.conf']);
  });

  it('the rest of the node: hostname, containerd config, tmpfs dirs, logs', () => {
    expect(worker.cat('/etc/hostname')).toBe('k8s-lab-worker\n');
    expect(worker.cat('/etc/containerd/config.toml')).toContain('SystemdCgroup = true');
    expect(modeString('dir', worker.stat('/tmp').mode)).toBe('drwxrwxrwt');
    expect(modeString('dir', worker.stat('/root').mode)).toBe('drwx------');
    for (const d of ['/var/log/pods', '/var/lib/containerd', '/run']) expect(worker.isDirectory(d)).toBe(true);
    expect(worker.stat('/usr/bin/kubelet').size).toBeGreaterThan(50_000_000);
  });
});

describe('FileSystem snapshots (snapshotDir / unchangedSince)', () => {
  const setup = () => {
    const fs = new FileSystem();
    fs.mkdir('/v/sub', { parents: true });
    fs.writeFile('/v/a', '1');
    fs.writeFile('/v/sub/b', '2');
    return { fs, snap: fs.snapshotDir('/v')! };
  };

  it('holds while nothing under the directory changes, and only then', () => {
    const { fs, snap } = setup();
    expect(fs.unchangedSince('/v', snap)).toBe(true);
    fs.writeFile('/elsewhere', 'x'); // outside the tree
    expect(fs.unchangedSince('/v', snap)).toBe(true);
    const changes: ((f: FileSystem) => void)[] = [
      (f) => f.writeFile('/v/a', '9'),
      (f) => f.writeFile('/v/sub/b', '9'),
      (f) => f.writeFile('/v/c', '3'),
      (f) => f.mkdir('/v/sub/d'),
      (f) => f.rm('/v/a'),
      (f) => f.rm('/v', { recursive: true }),
      (f) => {
        f.rm('/v', { recursive: true });
        f.mkdir('/v/sub', { parents: true });
        f.writeFile('/v/a', '1');
        f.writeFile('/v/sub/b', '2');
      },
      (f) => f.mv('/v/a', '/v/sub/a'),
    ];
    for (const change of changes) {
      const { fs: f, snap: s } = setup();
      change(f);
      expect(f.unchangedSince('/v', s)).toBe(false);
    }
  });

  it('gives the full check\'s answer after a remembered proof: any later change, another path, a moved ancestor', () => {
    const changes: ((f: FileSystem) => void)[] = [
      (f) => f.writeFile('/v/a', '9'),
      (f) => f.appendFile('/v/sub/b', '9'),
      (f) => f.cp('/v/a', '/v/sub/b'),
      (f) => f.cp('/v/a', '/v/c'),
      (f) => f.touch('/v/new'),
      (f) => f.symlink('/v/a', '/v/sub/l'),
      (f) => f.rmdir('/v/sub/empty'),
      (f) => f.mv('/v', '/moved'),
      (f) => f.emptyDirectory('/v/sub'),
    ];
    for (const change of changes) {
      const { fs: f, snap: s } = setup();
      f.mkdir('/v/sub/empty');
      const s2 = f.snapshotDir('/v')!;
      expect(f.unchangedSince('/v', s2)).toBe(true);
      expect(f.unchangedSince('/v', s2)).toBe(true); // proven, remembered
      expect(f.unchangedSince('/v', s)).toBe(false); // the older snapshot: /v/sub/empty was added since
      expect(f.unchangedSince('/v/sub', s2)).toBe(false); // another path, another node
      change(f);
      expect(f.unchangedSince('/v', s2)).toBe(false);
    }
    // Unchanged again after a change elsewhere: proven by the full check, then remembered.
    const { fs, snap } = setup();
    expect(fs.unchangedSince('/v', snap)).toBe(true);
    fs.writeFile('/elsewhere', 'x');
    expect(fs.unchangedSince('/v', snap)).toBe(true);
    expect(fs.unchangedSince('/v', snap)).toBe(true);
    fs.writeFile('/v/a', '1'); // same content: the same tree
    expect(fs.unchangedSince('/v', snap)).toBe(true);
  });

  it('follows the path, not the nodes it once went through (deep paths, moved ancestors, symlinks)', () => {
    const deep = () => {
      const fs = new FileSystem();
      fs.mkdir('/p/q/v', { parents: true });
      fs.writeFile('/p/q/v/a', '1');
      return { fs, snap: fs.snapshotDir('/p/q/v')! };
    };
    // An ancestor moved away and back: the same nodes again.
    let { fs, snap } = deep();
    fs.mv('/p/q', '/p/r');
    expect(fs.unchangedSince('/p/q/v', snap)).toBe(false);
    fs.mv('/p/r', '/p/q');
    expect(fs.unchangedSince('/p/q/v', snap)).toBe(true);
    // An ancestor replaced by a symlink to the same directory: the path still resolves to it.
    ({ fs, snap } = deep());
    fs.mv('/p/q', '/p/real');
    fs.symlink('/p/real', '/p/q');
    expect(fs.unchangedSince('/p/q/v', snap)).toBe(true);
    // An equal tree made anew at the path: other nodes.
    ({ fs, snap } = deep());
    fs.rm('/p', { recursive: true });
    fs.mkdir('/p/q/v', { parents: true });
    fs.writeFile('/p/q/v/a', '1');
    expect(fs.unchangedSince('/p/q/v', snap)).toBe(false);
    // The same directory asked for by another spelling of its path.
    ({ fs, snap } = deep());
    expect(fs.unchangedSince('/p//q/./v/', snap)).toBe(true);
  });

  it('is not taken of a tree holding a symlink, or of a non-directory', () => {
    const { fs } = setup();
    fs.symlink('/v/a', '/v/link');
    expect(fs.snapshotDir('/v')).toBeUndefined();
    expect(fs.snapshotDir('/v/a')).toBeUndefined();
    expect(fs.snapshotDir('/nope')).toBeUndefined();
  });
});
