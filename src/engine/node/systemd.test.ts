/**
 * systemd on a kind node as a person sees it through `docker exec NODE systemctl ...` and
 * `journalctl -u ...`: unit files and drop-ins, the restart story of seed 000 ("If kubelet
 * crashes, systemd restarts it within 10 seconds"), stop vs kill, the start rate limit
 * (systemd.unit(5) StartLimitIntervalSec=/StartLimitBurst=, disabled for kubelet.service by
 * StartLimitInterval=0), and `systemctl status` in systemd 252's layout.
 */
import { describe, expect, it } from 'vitest';
import { Clock } from '../clock';
import { FileSystem, kindNodeFilesystem } from './fs';
import { Machine } from './machine';
import type { Program } from './process';
import {
  daemonProgram,
  exitingProgram,
  expandArgv,
  formatBytes,
  formatTimespan,
  loadUnit,
  parseTimespan,
  parseUnitFile,
  splitWords,
} from './systemd';

/** A stand-in kubelet: logs a klog line, holds 37.2M, dies of SIGTERM like any Go program without a handler. */
function fakeKubelet(): Program {
  return {
    start(ctx) {
      ctx.setMemory(39_007_437);
      ctx.log(`I0105 06:00:00.000000 ${String(ctx.pid).padStart(7)} server.go:484] "Kubelet version" kubeletVersion="v1.35.0"`);
    },
  };
}

/** A kind worker booted with the fake kubelet, `settleMs` after power-on. */
function kindWorker(settleMs = 1000): { clock: Clock; m: Machine } {
  const clock = new Clock();
  const m = new Machine({ name: 'k8s-lab-worker', role: 'worker', clock });
  m.registerExecutable('/usr/bin/kubelet', () => fakeKubelet());
  m.powerOn();
  clock.advance(settleMs);
  return { clock, m };
}

const sh = (m: Machine, line: string) => m.systemctl(line.split(' ').filter(Boolean));
const activeLine = (m: Machine, unit = 'kubelet') => sh(m, `status ${unit}`).stdout.split('\n').find((l) => l.startsWith('     Active:'));
const show = (m: Machine, props: string) => sh(m, `show kubelet -p ${props} --value`).stdout.trim();
const unitLog = (m: Machine, unit = 'kubelet') => m.journalctl(['-u', unit]).stdout.trimEnd().split('\n');

describe('unit files', () => {
  it("parses the seed's kubelet.service, continuation lines included", () => {
    const text = [
      '[Unit]',
      'Description=kubelet: The Kubernetes Node Agent',
      '[Service]',
      'ExecStart=/usr/bin/kubelet \\',
      '--config=/var/lib/kubelet/config.yaml \\',
      '--kubeconfig=/etc/kubernetes/kubelet.conf \\',
      '--container-runtime-endpoint=unix:///run/containerd/containerd.sock',
      'Restart=always',
      'RestartSec=10',
    ].join('\n');
    const a = parseUnitFile(text).find((x) => x.key === 'ExecStart')!;
    expect(splitWords(a.value)).toEqual([
      '/usr/bin/kubelet',
      '--config=/var/lib/kubelet/config.yaml',
      '--kubeconfig=/etc/kubernetes/kubelet.conf',
      '--container-runtime-endpoint=unix:///run/containerd/containerd.sock',
    ]);
  });

  it('a drop-in resets ExecStart= and the environment files build the kubelet command line kind runs', () => {
    const m = new Machine({ name: 'k8s-lab-worker', role: 'worker', clock: new Clock() });
    const info = loadUnit(m.fs, 'kubelet')!;
    expect(info.fragmentPath).toBe('/etc/systemd/system/kubelet.service');
    expect(info.dropInPaths).toEqual(['/etc/systemd/system/kubelet.service.d/10-kubeadm.conf', '/etc/systemd/system/kubelet.service.d/11-kind.conf']);
    expect(info.settings.execStart).toEqual([{ argv: ['/usr/bin/kubelet', '$KUBELET_KUBECONFIG_ARGS', '$KUBELET_CONFIG_ARGS', '$KUBELET_KUBEADM_ARGS', '$KUBELET_EXTRA_ARGS'], ignoreFailure: false }]);
    expect(info.settings).toMatchObject({ restart: 'always', restartSecMs: 10_000, startLimitIntervalMs: 0, slice: 'kubelet.slice', killMode: 'process' });
    expect(info.settings.execStartPre.map((c) => c.argv.slice(0, 2))).toEqual([
      ['/bin/sh', '-euc'],
      ['/bin/sh', '-euc'],
    ]);
    // As the unit's process sees it (systemd.service(5): "$VAR" splits at whitespace, missing -> nothing).
    const env = { KUBELET_CONFIG_ARGS: '--config=/var/lib/kubelet/config.yaml', KUBELET_EXTRA_ARGS: '' };
    expect(expandArgv(['/usr/bin/kubelet', '$KUBELET_CONFIG_ARGS', '$KUBELET_EXTRA_ARGS', '${UNSET}x'], env)).toEqual(['/usr/bin/kubelet', '--config=/var/lib/kubelet/config.yaml', 'x']);
  });

  it("containerd.service: kind's Type=notify unit with its own start limit disabled", () => {
    const fs = new Machine({ name: 'k8s-lab-worker', role: 'worker', clock: new Clock() }).fs;
    const s = loadUnit(fs, 'containerd.service')!.settings;
    expect(s).toMatchObject({ type: 'notify', restart: 'always', restartSecMs: 1000, startLimitIntervalMs: 0, killMode: 'process', tasksMax: Infinity, after: ['network.target', 'local-fs.target'] });
    expect(s.execStartPre).toEqual([{ argv: ['/sbin/modprobe', 'overlay'], ignoreFailure: true }]);
    expect(loadUnit(new FileSystem(), 'kubelet')).toBeUndefined();
  });

  it('time spans and the sizes systemd prints', () => {
    expect(parseTimespan('10')).toBe(10_000);
    expect(parseTimespan('1s')).toBe(1000);
    expect(parseTimespan('100ms')).toBe(100);
    expect(parseTimespan('1min 30s')).toBe(90_000);
    expect(parseTimespan('infinity')).toBe(Infinity);
    expect(parseTimespan('ten')).toBeUndefined();
    expect(formatTimespan(3456)).toBe('3.456s');
    expect(formatTimespan(123_456)).toBe('2min 3.456s');
    expect(formatTimespan(95)).toBe('95ms');
    expect(formatTimespan(2045)).toBe('2.045s');
    expect(formatBytes(39_007_437)).toBe('37.2M');
    expect(formatBytes(512)).toBe('512B');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5G');
  });
});

describe('the seed story: systemd brings the kubelet back', () => {
  it('kill -9 the kubelet: activating (auto-restart) for RestartSec=10, then active (running) with a new PID, restart counter 1', () => {
    const { clock, m } = kindWorker(60_000);
    const old = m.pgrep('kubelet');
    expect(old).toHaveLength(1);
    expect(m.signal(old[0], 'SIGKILL')).toBe(true);
    // service_enter_dead() passes through failed before auto-restart: "since" is the death
    expect(activeLine(m)).toBe('     Active: activating (auto-restart) (Result: signal) since Mon 2026-01-05 06:01:00 UTC; now');
    expect(m.pgrep('kubelet')).toEqual([]);
    clock.advance(9_999);
    expect(sh(m, 'is-active kubelet').stdout).toBe('activating\n');
    expect(m.systemd!.snapshot('kubelet')).toMatchObject({ activeState: 'activating', subState: 'auto-restart', restartAt: 70_000 });
    clock.advance(1 + 10); // the timer fires at +10 s; ExecStartPre helpers take a few ms
    expect(sh(m, 'is-active kubelet')).toEqual({ stdout: 'active\n', stderr: '', exitCode: 0 });
    const now = m.pgrep('kubelet');
    expect(now).toHaveLength(1);
    expect(now[0]).toBeGreaterThan(old[0]);
    expect(show(m, 'NRestarts')).toBe('1');
    expect(m.systemd!.snapshot('kubelet')!.mainPid).toBe(now[0]);
    expect(unitLog(m).slice(-8).map((l) => l.replace(/^.*?\]: /, ''))).toEqual([
      'kubelet.service: Main process exited, code=killed, status=9/KILL',
      "kubelet.service: Failed with result 'signal'.",
      'kubelet.service: Scheduled restart job, restart counter is at 1.',
      'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
      'kubelet.service: Consumed 1.728s CPU time.',
      'Starting kubelet.service - kubelet: The Kubernetes Node Agent...',
      // PID 1 logs `Started` right after fork() (Type=simple); the kubelet's first line follows.
      'Started kubelet.service - kubelet: The Kubernetes Node Agent.',
      `I0105 06:00:00.000000 ${String(now[0]).padStart(7)} server.go:484] "Kubelet version" kubeletVersion="v1.35.0"`,
    ]);
    expect(unitLog(m).at(-8)).toMatch(/^Jan 05 06:01:00 k8s-lab-worker systemd\[1\]: /);
    expect(unitLog(m).at(-6)).toMatch(/^Jan 05 06:01:10 k8s-lab-worker systemd\[1\]: /);
  });

  it("sudo kill $(pgrep kubelet): SIGTERM is a clean death, so 'Deactivated successfully.' - and Restart=always still restarts it", () => {
    const { clock, m } = kindWorker();
    m.pkill('kubelet');
    expect(activeLine(m)).toBe('     Active: activating (auto-restart) since Mon 2026-01-05 06:00:01 UTC; now');
    expect(unitLog(m).at(-1)).toBe('Jan 05 06:00:01 k8s-lab-worker systemd[1]: kubelet.service: Deactivated successfully.');
    clock.advance(10_010);
    expect(activeLine(m)).toBe('     Active: active (running) since Mon 2026-01-05 06:00:11 UTC; 4ms ago');
  });

  it('a crash-looping kubelet is restarted every 10 s forever: StartLimitInterval=0 disables the limit', () => {
    const { clock, m } = kindWorker();
    m.registerExecutable('/usr/bin/kubelet', () => exitingProgram(1, 50, ['E0105 run.go:72] "command failed" err="failed to load kubelet config file"']));
    sh(m, 'restart kubelet');
    clock.advance(125_000);
    expect(show(m, 'NRestarts')).toBe('12');
    expect(activeLine(m)).toMatch(/^ {5}Active: activating \(auto-restart\) \(Result: exit-code\) since /);
    expect(m.journalctl(['-u', 'kubelet']).stdout).not.toContain('Start request repeated too quickly.');
    // systemd's own levels: the exit is a notice (service.c service_sigchld_event), the result a
    // warning (service_enter_dead); the kubelet's klog E line is its stderr, info.
    expect(m.journalctl(['-u', 'kubelet', '-p', 'err']).stdout).toBe('-- No entries --\n');
    const warn = m.journalctl(['-u', 'kubelet', '-p', 'notice']).stdout.trim().split('\n').map((l) => l.replace(/^.*?\]: /, ''));
    expect(warn.slice(-2)).toEqual(['kubelet.service: Main process exited, code=exited, status=1/FAILURE', "kubelet.service: Failed with result 'exit-code'."]);
    expect(warn.every((l) => !l.includes('run.go'))).toBe(true);
  });
});

describe('stop, start, restart, kill', () => {
  it('systemctl stop: inactive (dead), and it stays down (Restart= governs exits, not stops)', () => {
    const { clock, m } = kindWorker(30_000);
    expect(sh(m, 'stop kubelet')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    clock.advance(60_000);
    expect(activeLine(m)).toBe('     Active: inactive (dead) since Mon 2026-01-05 06:00:30 UTC; 1min 0s ago');
    expect(sh(m, 'is-active kubelet')).toEqual({ stdout: 'inactive\n', stderr: '', exitCode: 3 });
    expect(m.pgrep('kubelet')).toEqual([]);
    expect(unitLog(m).slice(-4).map((l) => l.replace(/^.*?\]: /, ''))).toEqual([
      'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...',
      'kubelet.service: Deactivated successfully.',
      'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
      'kubelet.service: Consumed 1.188s CPU time.',
    ]);
    sh(m, 'start kubelet');
    clock.advance(10);
    expect(sh(m, 'is-active kubelet').stdout).toBe('active\n');
  });

  it('stop waits TimeoutStopSec=90s for a process that ignores SIGTERM, then SIGKILL: failed (Result: timeout)', () => {
    const { clock, m } = kindWorker();
    const stubborn: Program = { start() {}, onSignal: () => true };
    m.registerExecutable('/usr/bin/kubelet', () => stubborn);
    sh(m, 'restart kubelet');
    clock.advance(100);
    sh(m, 'stop kubelet');
    expect(activeLine(m)).toMatch(/^ {5}Active: deactivating \(stop-sigterm\) since /);
    clock.advance(89_000);
    expect(sh(m, 'is-active kubelet').stdout).toBe('deactivating\n');
    clock.advance(1_000);
    expect(activeLine(m)).toMatch(/^ {5}Active: failed \(Result: timeout\) since /);
    expect(unitLog(m).slice(-6).map((l) => l.replace(/^.*?\]: /, ''))).toEqual([
      "kubelet.service: State 'stop-sigterm' timed out. Killing.",
      `kubelet.service: Killing process ${m.systemd!.snapshot('kubelet')!.mainPid || unitLog(m).at(-5)!.match(/process (\d+)/)![1]} (kubelet) with signal SIGKILL.`,
      'kubelet.service: Main process exited, code=killed, status=9/KILL',
      "kubelet.service: Failed with result 'timeout'.",
      'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
      expect.stringMatching(/^kubelet\.service: Consumed \d+\.\d{3}s CPU time\.$/),
    ]);
  });

  it('systemctl kill sends SIGTERM by default; -s SIGKILL / --signal=9 kill it; either way Restart=always restarts it', () => {
    const { clock, m } = kindWorker();
    sh(m, 'kill kubelet');
    expect(activeLine(m)).toMatch(/activating \(auto-restart\) since/);
    clock.advance(10_010);
    sh(m, 'kill -s SIGKILL kubelet');
    expect(activeLine(m)).toMatch(/activating \(auto-restart\) \(Result: signal\) since/);
    clock.advance(10_010);
    expect(m.systemctl(['kill', '--signal=9', 'kubelet']).exitCode).toBe(0);
    expect(unitLog(m).at(-2)).toMatch(/kubelet.service: Main process exited, code=killed, status=9\/KILL$/);
    clock.advance(10_010);
    expect(show(m, 'NRestarts')).toBe('3');
    expect(sh(m, 'kill -s BOGUS kubelet')).toEqual({ stdout: '', stderr: 'Failed to parse signal string BOGUS.\n', exitCode: 1 });
  });

  it('a manual restart flushes the restart counter', () => {
    const { clock, m } = kindWorker();
    m.pkill('kubelet', 'SIGKILL');
    clock.advance(10_010);
    expect(show(m, 'NRestarts')).toBe('1');
    sh(m, 'restart kubelet');
    clock.advance(10);
    expect(show(m, 'NRestarts')).toBe('0');
    expect(show(m, 'ActiveState')).toBe('active');
  });
});

describe('the start rate limit (StartLimitIntervalSec=10s, StartLimitBurst=5 by default)', () => {
  function withUnit(unit: string, program: () => Program): { clock: Clock; m: Machine } {
    const { clock, m } = kindWorker();
    m.fs.installBinary('/usr/local/bin/flappy', 1000);
    m.fs.writeFile('/etc/systemd/system/flappy.service', unit);
    m.registerExecutable('/usr/local/bin/flappy', program);
    return { clock, m };
  }

  it('a unit that keeps exiting and restarting (RestartSec=100ms default) ends failed (Result: start-limit-hit)', () => {
    const { clock, m } = withUnit('[Unit]\nDescription=Flappy\n\n[Service]\nExecStart=/usr/local/bin/flappy\nRestart=always\n', () => exitingProgram(0, 20));
    sh(m, 'start flappy');
    clock.advance(5_000);
    expect(activeLine(m, 'flappy')).toBe('     Active: failed (Result: start-limit-hit) since Mon 2026-01-05 06:00:01 UTC; 4s ago');
    expect(unitLog(m, 'flappy').slice(-5).map((l) => l.replace(/^.*?\]: /, ''))).toEqual([
      'flappy.service: Scheduled restart job, restart counter is at 5.',
      'Stopped flappy.service - Flappy.',
      'flappy.service: Start request repeated too quickly.',
      "flappy.service: Failed with result 'start-limit-hit'.",
      'Failed to start flappy.service - Flappy.',
    ]);
    // The failed start job is LOG_ERR (src/core/job.c job_done_messages[JOB_FAILED]).
    expect(m.journalctl(['-u', 'flappy', '-p', 'err']).stdout).toBe('Jan 05 06:00:01 k8s-lab-worker systemd[1]: Failed to start flappy.service - Flappy.\n');
    // Manual starts count too, until the window passes or reset-failed.
    expect(sh(m, 'start flappy').stderr).toBe(
      'Job for flappy.service failed because start of the service was attempted too often.\n' +
        'See "systemctl status flappy.service" and "journalctl -xeu flappy.service" for details.\n' +
        'To force a start use "systemctl reset-failed flappy.service"\nfollowed by "systemctl start flappy.service" again.\n',
    );
    sh(m, 'reset-failed flappy');
    expect(sh(m, 'is-active flappy').stdout).toBe('inactive\n');
    expect(sh(m, 'start flappy').exitCode).toBe(0);
  });

  it('six manual restarts within 10 s also hit the limit', () => {
    const { clock, m } = withUnit('[Unit]\nDescription=Steady\n\n[Service]\nExecStart=/usr/local/bin/flappy\n', () => daemonProgram());
    for (let i = 0; i < 5; i++) {
      expect(sh(m, 'restart flappy').exitCode).toBe(0);
      clock.advance(500);
    }
    expect(sh(m, 'restart flappy').exitCode).toBe(1);
    expect(activeLine(m, 'flappy')).toMatch(/^ {5}Active: failed \(Result: start-limit-hit\) since /);
  });

  it("systemd 252 keeps the first failure's result: a crash loop that hits the limit shows failed (Result: exit-code)", () => {
    const { clock, m } = withUnit('[Unit]\nDescription=Crashy\n\n[Service]\nExecStart=/usr/local/bin/flappy\nRestart=on-failure\n', () => exitingProgram(1, 10));
    sh(m, 'start flappy');
    clock.advance(5_000);
    expect(activeLine(m, 'flappy')).toMatch(/^ {5}Active: failed \(Result: exit-code\) since /);
    expect(m.journalctl(['-u', 'flappy']).stdout).toContain('flappy.service: Start request repeated too quickly.');
  });

  it('StartLimitIntervalSec=0 (or StartLimitInterval=0) disables it', () => {
    const { clock, m } = withUnit('[Unit]\nDescription=Flappy\nStartLimitIntervalSec=0\n\n[Service]\nExecStart=/usr/local/bin/flappy\nRestart=always\n', () => exitingProgram(1, 20));
    sh(m, 'start flappy');
    clock.advance(30_000);
    expect(Number(m.systemctl(['show', 'flappy', '-p', 'NRestarts', '--value']).stdout)).toBeGreaterThan(200);
    expect(sh(m, 'is-active flappy').stdout).not.toBe('failed\n');
  });
});

describe('systemctl status', () => {
  it('active (running): the layout of systemd 252 (Loaded, Drop-In, Active, Docs, Process, Main PID, Tasks, Memory, CPU, CGroup, journal)', () => {
    const { m } = kindWorker(5 * 60_000);
    const r = sh(m, 'status kubelet');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        '● kubelet.service - kubelet: The Kubernetes Node Agent',
        '     Loaded: loaded (/etc/systemd/system/kubelet.service; enabled; preset: enabled)',
        '    Drop-In: /etc/systemd/system/kubelet.service.d',
        '             └─10-kubeadm.conf, 11-kind.conf',
        '     Active: active (running) since Mon 2026-01-05 06:00:00 UTC; 4min 59s ago',
        '       Docs: http://kubernetes.io/docs/',
        '    Process: 100 ExecStartPre=/bin/sh -euc if [ -f /sys/fs/cgroup/cgroup.controllers ]; then /kind/bin/create-kubelet-cgroup-v2.sh; fi (code=exited, status=0/SUCCESS)',
        '    Process: 102 ExecStartPre=/bin/sh -euc if [ ! -f /sys/fs/cgroup/cgroup.controllers ] && [ ! -d /sys/fs/cgroup/systemd/kubelet ]; then mkdir -p /sys/fs/cgroup/systemd/kubelet; fi (code=exited, status=0/SUCCESS)',
        '   Main PID: 103 (kubelet)',
        '      Tasks: 15 (limit: 18945)',
        '     Memory: 37.2M',
        '        CPU: 6.048s',
        '     CGroup: /kubelet.slice/kubelet.service',
        '             └─103 /usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml --container-runtime-endpoint=unix:///run/containerd/containerd.sock --node-ip=172.18.0.3 --node-labels= --pod-infra-container-image=registry.k8s.io/pause:3.10.1 --provider-id=kind://docker/k8s-lab/k8s-lab-worker --runtime-cgroups=/system.slice/containerd.service',
        '',
        'Jan 05 06:00:00 k8s-lab-worker systemd[1]: Starting kubelet.service - kubelet: The Kubernetes Node Agent...',
        'Jan 05 06:00:00 k8s-lab-worker systemd[1]: Started kubelet.service - kubelet: The Kubernetes Node Agent.',
        'Jan 05 06:00:00 k8s-lab-worker kubelet[103]: I0105 06:00:00.000000     103 server.go:484] "Kubelet version" kubeletVersion="v1.35.0"',
        '',
      ].join('\n'),
    );
  });

  it("the deb package's unit (the seed's file): no drop-in of kind's, https docs, system.slice", () => {
    const clock = new Clock();
    const fs = kindNodeFilesystem({ nodeName: 'k8s-lab-worker', role: 'worker', kubeletUnit: 'upstream', now: () => clock.now() });
    const m = new Machine({ name: 'k8s-lab-worker', role: 'worker', clock, fs });
    m.registerExecutable('/usr/bin/kubelet', () => fakeKubelet());
    m.powerOn();
    clock.advance(5 * 60_000);
    const lines = sh(m, 'status kubelet').stdout.split('\n');
    expect(lines.slice(2, 6)).toEqual([
      '    Drop-In: /etc/systemd/system/kubelet.service.d',
      '             └─10-kubeadm.conf',
      '     Active: active (running) since Mon 2026-01-05 06:00:00 UTC; 4min 59s ago',
      '       Docs: https://kubernetes.io/docs/',
    ]);
    expect(lines).toContain('     CGroup: /system.slice/kubelet.service');
  });

  it('after a crash: Process and Main PID carry the exit, no CGroup; after a stop: ○ inactive (dead)', () => {
    const { clock, m } = kindWorker(60_000);
    m.pkill('kubelet', 'SIGKILL');
    clock.advance(2_000);
    const crashed = sh(m, 'status kubelet');
    expect(crashed.exitCode).toBe(3);
    expect(crashed.stdout).toContain(
      '    Process: 103 ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS (code=killed, signal=KILL)\n   Main PID: 103 (code=killed, signal=KILL)\n        CPU: 1.728s\n\n',
    );
    expect(crashed.stdout).not.toContain('CGroup:');
    clock.advance(10_000);
    sh(m, 'stop kubelet');
    expect(sh(m, 'status kubelet').stdout.split('\n')[0]).toBe('○ kubelet.service - kubelet: The Kubernetes Node Agent');
  });

  it('unknown units: status exit 4, start/stop exit 5', () => {
    const { m } = kindWorker();
    expect(sh(m, 'status etcd')).toEqual({ stdout: '', stderr: 'Unit etcd.service could not be found.\n', exitCode: 4 });
    expect(sh(m, 'start etcd')).toEqual({ stdout: '', stderr: 'Failed to start etcd.service: Unit etcd.service not found.\n', exitCode: 5 });
    expect(sh(m, 'stop etcd')).toEqual({ stdout: '', stderr: 'Failed to stop etcd.service: Unit etcd.service not loaded.\n', exitCode: 5 });
    expect(sh(m, 'is-enabled etcd')).toEqual({ stdout: '', stderr: 'Failed to get unit file state for etcd.service: No such file or directory\n', exitCode: 1 });
  });
});

describe('conditions, daemon-reload, enablement, readiness, missing binaries', () => {
  it("ConditionPathExists (kind's kubelet unit): no config.yaml -> restart exits 0, the unit is skipped, not failed", () => {
    const { clock, m } = kindWorker(10_000);
    m.fs.mv('/var/lib/kubelet/config.yaml', '/root/config.yaml.bak');
    expect(sh(m, 'restart kubelet').exitCode).toBe(0);
    clock.advance(3_000);
    const st = sh(m, 'status kubelet').stdout.split('\n');
    expect(st.slice(4, 7)).toEqual([
      '     Active: inactive (dead) since Mon 2026-01-05 06:00:10 UTC; 3s ago',
      '  Condition: start condition failed at Mon 2026-01-05 06:00:10 UTC; 3s ago',
      '             └─ ConditionPathExists=/var/lib/kubelet/config.yaml was not met',
    ]);
    expect(unitLog(m).at(-1)).toBe(
      'Jan 05 06:00:10 k8s-lab-worker systemd[1]: kubelet.service - kubelet: The Kubernetes Node Agent was skipped because of an unmet condition check (ConditionPathExists=/var/lib/kubelet/config.yaml).',
    );
    expect(m.systemctl(['show', 'kubelet', '-p', 'Result', '-p', 'NRestarts', '-p', 'ActiveState', '-p', 'ConditionResult']).stdout).toBe(
      'Result=success\nNRestarts=0\nActiveState=inactive\nConditionResult=no\n',
    );
    m.fs.mv('/root/config.yaml.bak', '/var/lib/kubelet/config.yaml');
    sh(m, 'start kubelet');
    clock.advance(10);
    expect(show(m, 'ConditionResult')).toBe('yes');
    expect(sh(m, 'is-active kubelet').stdout).toBe('active\n');
  });

  it('unit files are cached: a new drop-in needs daemon-reload (and systemctl says so)', () => {
    const { clock, m } = kindWorker();
    m.fs.writeFile('/etc/systemd/system/kubelet.service.d/99-verbose.conf', '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--v=4"\n');
    const warning =
      "Warning: The unit file, source configuration file or drop-ins of kubelet.service changed on disk. Run 'systemctl daemon-reload' to reload units.\n";
    expect(sh(m, 'restart kubelet').stderr).toBe(warning);
    expect(show(m, 'DropInPaths')).toBe('/etc/systemd/system/kubelet.service.d/10-kubeadm.conf /etc/systemd/system/kubelet.service.d/11-kind.conf');
    sh(m, 'daemon-reload');
    expect(sh(m, 'restart kubelet').stderr).toBe('');
    clock.advance(10);
    expect(show(m, 'DropInPaths')).toContain('99-verbose.conf');
    // EnvironmentFile=-/etc/default/kubelet comes after Environment=, so it still wins for KUBELET_EXTRA_ARGS.
    const pid = m.pgrep('kubelet')[0];
    expect(m.processes.get(pid)!.args.at(-1)).toBe('--runtime-cgroups=/system.slice/containerd.service');
  });

  it('enable/disable/is-enabled through the multi-user.target.wants link', () => {
    const { m } = kindWorker();
    expect(sh(m, 'is-enabled kubelet')).toEqual({ stdout: 'enabled\n', stderr: '', exitCode: 0 });
    expect(sh(m, 'disable kubelet').stderr).toBe('Removed "/etc/systemd/system/multi-user.target.wants/kubelet.service".\n');
    expect(sh(m, 'is-enabled kubelet')).toEqual({ stdout: 'disabled\n', stderr: '', exitCode: 1 });
    expect(sh(m, 'status kubelet').stdout).toContain('Loaded: loaded (/etc/systemd/system/kubelet.service; disabled; preset: enabled)');
    expect(sh(m, 'enable kubelet').stderr).toBe('Created symlink /etc/systemd/system/multi-user.target.wants/kubelet.service → /etc/systemd/system/kubelet.service.\n');
    expect(sh(m, 'is-enabled systemd-journald')).toEqual({ stdout: 'static\n', stderr: '', exitCode: 0 });
  });

  it('Type=notify waits for READY=1 from a program registered with sdNotify', () => {
    const clock = new Clock();
    const m = new Machine({ name: 'k8s-lab-worker', role: 'worker', clock });
    m.registerExecutable('/usr/bin/kubelet', () => fakeKubelet());
    m.registerExecutable('/usr/local/bin/containerd', () => ({ start: (ctx) => void ctx.clock.schedule(400, () => ctx.notify?.('READY=1')) }), { sdNotify: true });
    m.powerOn();
    clock.advance(300);
    expect(activeLine(m, 'containerd')).toBe('     Active: activating (start) since Mon 2026-01-05 06:00:00 UTC; 200ms ago');
    clock.advance(300);
    expect(sh(m, 'is-active containerd').stdout).toBe('active\n');
    expect(unitLog(m, 'containerd').map((l) => l.slice(0, 16) + l.replace(/^.*?\]: /, ''))).toEqual([
      'Jan 05 06:00:00 Starting containerd.service - containerd container runtime...',
      'Jan 05 06:00:00 Started containerd.service - containerd container runtime.',
    ]);
  });

  it('a missing ExecStart binary: status=203/EXEC, as systemd reports a failed exec', () => {
    const { clock, m } = kindWorker();
    m.fs.rm('/usr/bin/kubelet');
    sh(m, 'restart kubelet');
    clock.advance(100);
    const log = unitLog(m).slice(-4).map((l) => l.replace(/^Jan 05 06:00:01 k8s-lab-worker /, ''));
    expect(log[0]).toMatch(/^systemd\[\d+\]: kubelet.service: Failed to locate executable \/usr\/bin\/kubelet: No such file or directory$/);
    expect(log.slice(1)).toEqual([
      expect.stringMatching(/^systemd\[\d+\]: kubelet.service: Failed at step EXEC spawning \/usr\/bin\/kubelet: No such file or directory$/),
      'systemd[1]: kubelet.service: Main process exited, code=exited, status=203/EXEC',
      "systemd[1]: kubelet.service: Failed with result 'exit-code'.",
    ]);
  });

  it('KillMode=process: stopping containerd leaves the other processes of its cgroup (the shims) running', () => {
    const { m } = kindWorker();
    const shim = m.processes.spawn({ command: '/usr/local/bin/containerd-shim-runc-v2', args: ['-namespace', 'k8s.io'], ppid: 1, unit: 'containerd.service', program: daemonProgram() });
    sh(m, 'stop containerd');
    expect(m.processes.get(shim.pid)).toBeDefined();
    expect(unitLog(m, 'containerd').join('\n')).toContain(`containerd.service: Unit process ${shim.pid} (containerd-shim) remains running after unit stopped.`);
    sh(m, 'start containerd');
    expect(unitLog(m, 'containerd').join('\n')).toContain(`containerd.service: Found left-over process ${shim.pid} (containerd-shim) in control group while starting unit. Ignoring.`);
  });
});
