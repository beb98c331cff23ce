/**
 * CRI Attach (stdin.ts): a container created with `stdin: true` whose main process is a shell
 * reads its commands from the attached stdin in its own context; closing stdin (EOF) ends it
 * with its last status, `exit N` with N.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../clock';
import { ProcessTable } from './process';
import { Containerd, type ContainerConfig } from './runtime';

function setup() {
  const clock = new Clock();
  const processes = new ProcessTable(clock);
  processes.spawn({ command: '/sbin/init', ppid: 0, program: { start: () => {} } });
  const rt = new Containerd({ nodeName: 'k8s-lab-worker', clock, rng: new Rng(7), processes, podCIDR: '10.244.1.0/24', nodeIP: '172.18.0.3' });
  const run = (pod: string, cfg: ContainerConfig) => {
    if (!rt.imageStatus(cfg.image)) {
      rt.pullImage(cfg.image);
      clock.advance(60_000);
    }
    const sb = rt.runPodSandbox({ name: pod, namespace: 'default', uid: `${pod}-uid` });
    const id = rt.createContainer(sb, cfg);
    rt.startContainer(id);
    return id;
  };
  return { clock, rt, run };
}

const BUSYBOX_IT: ContainerConfig = { name: 'tmp', image: 'busybox:1.36', command: ['sh'], stdin: true, tty: true };

describe('CRI Attach: the main shell reads its stdin', () => {
  it('runs each line in the shell own context (cd, variables persist), output to the client and the log', () => {
    const { rt, run } = setup();
    const id = run('tmp', BUSYBOX_IT);
    const a = rt.attach(id);
    expect(a).toMatchObject({ idle: true, interactive: true, ended: false, cwd: '/' });
    const seen: string[] = [];
    a.onOutput((t) => seen.push(t));
    a.write('cd /tmp');
    a.write('X=hello; export X');
    expect(a.cwd).toBe('/tmp');
    a.write('echo "$X from $(pwd)"');
    expect(seen.join('')).toBe('hello from /tmp\n');
    // With a tty the log records what the terminal showed: the prompt, the echoed line, the output.
    expect(rt.containerLogs(id, { format: 'plain' })).toEqual(['/ # cd /tmp', '/tmp # X=hello; export X', '/tmp # echo "$X from $(pwd)"', 'hello from /tmp']);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
  });

  it('a line that takes time keeps the shell busy until it ends (virtual time)', () => {
    const { clock, rt, run } = setup();
    const a = rt.attach(run('tmp', BUSYBOX_IT));
    a.write('sleep 5; echo done');
    expect(a.idle).toBe(false);
    clock.advance(5_000);
    expect(a.idle).toBe(true);
  });

  it('without a tty nothing is echoed: the log has the output only', () => {
    const { rt, run } = setup();
    const id = run('tmp', { ...BUSYBOX_IT, tty: false });
    const a = rt.attach(id);
    a.write('echo out; echo err >&2');
    expect(rt.containerLogs(id, { format: 'cri' }).map((l) => l.split(' ').slice(1).join(' '))).toEqual(['stdout F out', 'stderr F err']);
  });

  it('EOF (stdin closed) ends the shell with its last status: Error 1 after `false`, Completed 0 after `true`', () => {
    const { rt, run } = setup();
    const id = run('tmp', BUSYBOX_IT);
    const a = rt.attach(id);
    a.write('false');
    a.close();
    expect(a.ended).toBe(true);
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 1, reason: 'Error' });
    const id2 = run('tmp2', BUSYBOX_IT);
    const b = rt.attach(id2);
    b.write('true');
    b.close();
    expect(rt.containerStatus(id2)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });
  });

  it('`exit 3` ends the container with 3; later writes are ignored', () => {
    const { rt, run } = setup();
    const id = run('tmp', BUSYBOX_IT);
    const a = rt.attach(id);
    a.write('exit 3');
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 3, reason: 'Error' });
    expect(a.ended).toBe(true);
    a.write('echo never');
    expect(rt.containerLogs(id, { format: 'plain' })).toEqual(['/ # exit 3']);
  });

  it('a container that is not running cannot be attached (FailedPrecondition); one without stdin is attached for its output', () => {
    const { clock, rt, run } = setup();
    const id = run('s', { name: 's', image: 'busybox:1.36', command: ['sh', '-c', 'while true; do sleep 10; echo tick; done'] });
    const a = rt.attach(id);
    const seen: string[] = [];
    a.onOutput((t) => seen.push(t));
    a.write('echo ignored');
    clock.advance(20_000);
    expect(seen).toEqual(['tick\n', 'tick\n']);
    expect(a.interactive).toBe(false);
    const done = run('d', { name: 'd', image: 'busybox:1.36', command: ['true'], stdin: true });
    expect(() => rt.attach(done)).toThrow('rpc error: code = FailedPrecondition desc = container is in CONTAINER_EXITED state');
  });

  it('a program that never reads stdin is attachable for its output only', () => {
    const { clock, rt, run } = setup();
    const id = run('p', { name: 'p', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1; echo tick; sleep 3600'], stdin: true, tty: true });
    const a = rt.attach(id);
    const seen: string[] = [];
    a.onOutput((t) => seen.push(t));
    clock.advance(1_000);
    expect(seen).toEqual(['tick\n']);
    expect(a.interactive).toBe(false);
  });
});

describe('CRI Attach: Ctrl-C', () => {
  it('ends the foreground command (status 130), the shell reads its next line', () => {
    const { clock, rt, run } = setup();
    const id = run('tmp', BUSYBOX_IT);
    const a = rt.attach(id);
    const seen: string[] = [];
    a.onOutput((t) => seen.push(t));
    a.write('sleep 3600; echo not-reached');
    clock.advance(1_000);
    expect(a.idle).toBe(false);
    a.interrupt();
    expect(a.idle).toBe(true);
    a.write('echo $?');
    clock.advance(3_600_000);
    expect(seen.join('')).toBe('^C\n130\n');
    expect(rt.containerLogs(id, { format: 'plain' })).toEqual(['/ # sleep 3600; echo not-reached', '^C', '/ # echo $?', '130']);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
  });
});
