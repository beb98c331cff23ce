import { describe, expect, it } from 'vitest';
import { bootedCluster } from '../../engine/cluster';
import { createPlaygroundShell } from '../playground';
import { MemoryFiles } from '../files';
import { HOST_PROMPT, runToCompletion } from '../shell';

/** The booted bookshop cluster with a laptop shell; `run` a line to its end (virtual time moves). */
function setup() {
  const cluster = bootedCluster({ seed: 1 });
  const shell = createPlaygroundShell({ cluster, files: new MemoryFiles({}) });
  const run = (line: string) => runToCompletion(shell, line);
  return { cluster, shell, run };
}

/** attach.go's two lines on stderr before the session. */
const ATTACHED =
  "All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\nIf you don't see a command prompt, try pressing enter.\n";

describe('kubectl run -i -t: a throwaway pod attached to the terminal', () => {
  it('the tutorial flow: run --rm -it busybox sh, nslookup a Service, cd persists, exit deletes the pod', () => {
    const { shell, run } = setup();
    expect(run('kubectl run tmp --rm -it --image=busybox:1.36 --restart=Never -- sh')).toMatchObject({ exitCode: 0, text: ATTACHED });
    expect(shell.prompt).toBe('/ # ');
    expect(run('nslookup catalog.bookshop').text).toMatch(/^Server:\s+10\.96\.0\.10\nAddress:\s+10\.96\.0\.10:53\n\nName:\s+catalog\.bookshop\nAddress: 10\.\d+\.\d+\.\d+\n/);
    expect(run('cd /tmp')).toMatchObject({ exitCode: 0, text: '' });
    expect(shell.prompt).toBe('/tmp # ');
    run('export GREETING=hello');
    expect(run('echo $GREETING from $(pwd)').text).toBe('hello from /tmp\n');
    expect(run('hostname').text).toBe('tmp\n');
    // The pod the session runs in, as the API shows it while attached.
    expect(run('exit')).toMatchObject({ exitCode: 0, text: 'pod "tmp" deleted from default namespace\n' });
    expect(shell.prompt).toBe(HOST_PROMPT);
    expect(run('kubectl get pod tmp')).toMatchObject({ exitCode: 1, text: 'Error from server (NotFound): pods "tmp" not found\n' });
  });

  it('creates the container with stdin, stdinOnce and tty, as run.go generates it', () => {
    const { run } = setup();
    run('kubectl run t -it --image=busybox:1.36 --restart=Never -- sh');
    run('exit');
    expect(run("kubectl get pod t -o jsonpath='{.spec.containers[0]}'").text).toMatch(/"stdin":true,"stdinOnce":true,.*"tty":true/);
    expect(run('kubectl get pod t -o jsonpath={.spec.restartPolicy}').text).toBe('Never');
  });

  it('exit 3 with --restart=Never: kubectl exits 3, the pod is Error with exit code 3', () => {
    const { shell, run } = setup();
    run('kubectl run t3 -it --image=busybox:1.36 --restart=Never -- sh');
    expect(run('exit 3')).toMatchObject({ exitCode: 3, text: 'pod default/t3 terminated (Error)\n' });
    expect(shell.prompt).toBe(HOST_PROMPT);
    expect(run('echo $?').text).toBe('3\n');
    expect(run('kubectl get pod t3').text).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nt3\s+0\/1\s+Error\s+0\s+/);
    expect(run('kubectl get pod t3 -o jsonpath={.status.containerStatuses[0].state.terminated.exitCode}').text).toBe('3');
  });

  it('exit 3 with --rm: the pod is deleted first, then kubectl reports the exit code', () => {
    const { run } = setup();
    run('kubectl run t3 --rm -it --image=busybox:1.36 --restart=Never -- sh');
    expect(run('exit 3')).toMatchObject({ exitCode: 3, text: 'pod "t3" deleted from default namespace\npod default/t3 terminated (Error)\n' });
  });

  it('restartPolicy Always: the session ends with the reattach hint, the container restarts, kubectl attach -it returns to it', () => {
    const { shell, run } = setup();
    expect(run('kubectl run keep -it --image=busybox:1.36 -- sh')).toMatchObject({ exitCode: 0, text: ATTACHED });
    run('cd /etc');
    expect(run('exit')).toMatchObject({ exitCode: 0, text: "Session ended, resume using 'kubectl attach keep -c keep -i -t' command when the pod is running\n" });
    expect(shell.prompt).toBe(HOST_PROMPT);
    run('sleep 15');
    expect(run('kubectl get pod keep').text).toMatch(/\nkeep\s+1\/1\s+Running\s+1 \(\d+s ago\)\s+/);
    expect(run('kubectl attach keep -i -t')).toMatchObject({ exitCode: 0, text: ATTACHED });
    // A new container: a new shell, back in /.
    expect(shell.prompt).toBe('/ # ');
    expect(run('exit')).toMatchObject({ exitCode: 0, text: "Session ended, resume using 'kubectl attach keep -c keep -i -t' command when the pod is running\n" });
  });

  it('a command that is not a shell: its output until it exits, then the ending (--rm deletes)', () => {
    const { shell, run } = setup();
    const r = run('kubectl run t --rm -it --image=busybox:1.36 --restart=Never -- nslookup catalog.bookshop');
    expect(r.exitCode).toBe(0);
    expect(r.text).toMatch(/^Server:\s+10\.96\.0\.10\n[\s\S]*Name:\s+catalog\.bookshop\n[\s\S]*pod "t" deleted from default namespace\n$/);
    expect(shell.prompt).toBe(HOST_PROMPT);
    const f = run("kubectl run f -i --image=busybox:1.36 --restart=Never -- sh -c 'echo failing; exit 2'");
    expect(f).toMatchObject({ exitCode: 2 });
    expect(f.text).toMatch(/failing\n[\s\S]*pod default\/f terminated \(Error\)\n$/);
  });

  it('Ctrl-C in the session ends the container shell foreground command, not the session', () => {
    const { shell, run } = setup();
    run('kubectl run tmp --rm -it --image=busybox:1.36 --restart=Never -- sh');
    // The runner interrupts the line after 5 s, as Ctrl-C does.
    expect(runToCompletion(shell, 'sleep 3600', { maxVirtualMs: 5_000 })).toMatchObject({ timedOut: true });
    expect(shell.prompt).toBe('/ # ');
    expect(run('echo $?').text).toBe('130\n');
    expect(run('exit')).toMatchObject({ exitCode: 0, text: 'pod "tmp" deleted from default namespace\n' });
  });

  it('bash in a Debian image: its prompt names the pod; bash says exit as it leaves', () => {
    const { shell, run } = setup();
    run('kubectl run d --rm -it --image=debian:12 --restart=Never -- bash');
    expect(shell.prompt).toBe('root@d:/# ');
    run('cd /var');
    expect(shell.prompt).toBe('root@d:/var# ');
    expect(run('exit 1')).toMatchObject({ exitCode: 1, text: 'exit\npod "d" deleted from default namespace\npod default/d terminated (Error)\n' });
  });

  it('the container log records the session as the terminal showed it (attach.go warns about it)', () => {
    const { run } = setup();
    run('kubectl run r -it --image=busybox:1.36 --restart=Never -- sh');
    run('cd /tmp');
    run('echo secret');
    run('exit');
    expect(run('kubectl logs r').text).toBe('/ # cd /tmp\n/tmp # echo secret\nsecret\n/tmp # exit\n');
  });

  it('stdin piped into kubectl run -i: no tty, the lines go to the shell, then EOF ends it with the last status', () => {
    const { shell, run } = setup();
    const r = run("printf 'cd /etc\\npwd\\nfalse\\n' | kubectl run p -i -t --rm --image=busybox:1.36 --restart=Never -- sh");
    expect(r).toMatchObject({
      exitCode: 1,
      text: `Unable to use a TTY - input is not a terminal or the right kind of file\n${ATTACHED}/etc\npod "p" deleted from default namespace\npod default/p terminated (Error)\n`,
    });
    expect(shell.prompt).toBe(HOST_PROMPT);
  });

  it('--rm without attaching, and attaching to what cannot be attached, keep kubectl errors', () => {
    const { shell, run } = setup();
    expect(run('kubectl run x --rm --image=busybox:1.36')).toMatchObject({ exitCode: 1, text: expect.stringMatching(/^error: --rm should only be used for attached containers\n/) });
    run('kubectl run s --image=busybox:1.36 -- sleep 3600');
    run('kubectl wait --for=condition=Ready pod/s --timeout=60s');
    // No tty, no stdin: attached to its output until Ctrl-C (the runner's interrupt after 5 s).
    const s = runToCompletion(shell, 'kubectl attach s -i -t', { maxVirtualMs: 5_000 });
    expect(s.text).toBe(`error: Unable to use a TTY - container s did not allocate one\n${ATTACHED}`);
    expect(s.timedOut).toBe(true);
    run("kubectl run done --image=busybox:1.36 --restart=Never -- true");
    run('sleep 10');
    expect(run('kubectl attach done -it')).toMatchObject({ exitCode: 1, text: 'error: cannot attach a container in a completed pod; current phase is Succeeded\n' });
  });
});
