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

describe('kubectl exec -it POD -- sh: the container shell attached to the terminal', () => {
  it('lines run in the container (its files, hostname, user) with its prompt until exit; cd keeps the directory', () => {
    const { shell, run } = setup();
    const pod = run('kubectl get pods -n bookshop -l app=catalog -o name').text.split('\n')[0].replace('pod/', '');
    expect(run(`kubectl exec -it -n bookshop ${pod} -- sh`)).toMatchObject({ exitCode: 0, text: '' });
    // Alpine's ash as the non-root user `shop`: `\w \$ `.
    expect(shell.prompt).toBe('/ $ ');
    expect(run('hostname').text).toBe(`${pod}\n`);
    expect(run('cat /etc/os-release | head -1').text).toBe('NAME="Alpine Linux"\n');
    expect(run('cd /tmp')).toMatchObject({ exitCode: 0, text: '' });
    expect(shell.prompt).toBe('/tmp $ ');
    expect(run('pwd').text).toBe('/tmp\n');
    // kubectl is the laptop's: the container has none.
    expect(run('kubectl get pods')).toMatchObject({ exitCode: 127, text: 'sh: kubectl: not found\n' });
    expect(run('exit 3')).toMatchObject({ exitCode: 3, text: 'command terminated with exit code 3\n' });
    expect(shell.prompt).toBe(HOST_PROMPT);
    expect(run('echo $?').text).toBe('3\n');
  });

  it('a root busybox shell shows `/ # `; DNS answers from inside; bash in a Debian image shows root@POD', () => {
    const { shell, run } = setup();
    run('kubectl run bb --image=busybox:1.36 -- sleep 3600');
    expect(run('kubectl wait --for=condition=Ready pod/bb --timeout=60s').text).toBe('pod/bb condition met\n');
    run('kubectl exec -it bb -- sh');
    expect(shell.prompt).toBe('/ # ');
    expect(run('nslookup catalog.bookshop').text).toMatch(/^Server:\s+10\.96\.0\.10\n/);
    expect(run('exit')).toMatchObject({ exitCode: 0, text: '' });
    const pg = run('kubectl get pods -n bookshop -l app=postgres -o name').text.trim().replace('pod/', '');
    run(`kubectl exec -it -n bookshop ${pg} -- bash`);
    expect(shell.prompt).toBe(`root@${pg}:/# `);
    expect(run('exit')).toMatchObject({ exitCode: 0, text: 'exit\n' });
  });

  it('a shell the image lacks is not attached: kubectl reports the exec failure and stays on the laptop', () => {
    const { shell, run } = setup();
    const pod = run('kubectl get pods -n bookshop -l app=catalog -o name').text.split('\n')[0].replace('pod/', '');
    // containerd's streaming server answers an InternalError (kubectl exits 1); the exit code 126
    // with `command terminated` is Docker's (dockershim) behaviour, not kind's.
    const r = run(`kubectl exec -it -n bookshop ${pod} -- bash`);
    expect(r.exitCode).toBe(1);
    expect(r.text).toMatch(
      /^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in \$PATH: unknown\n$/,
    );
    expect(shell.prompt).toBe(HOST_PROMPT);
  });

  it('the session ends when its container goes (the pod deleted from another terminal)', () => {
    const { cluster, shell, run } = setup();
    run('kubectl run bb --image=busybox:1.36 -- sleep 3600');
    run('kubectl wait --for=condition=Ready pod/bb --timeout=60s');
    run('kubectl exec -it bb -- sh');
    expect(shell.prompt).toBe('/ # ');
    const other = createPlaygroundShell({ cluster, files: new MemoryFiles({}) });
    expect(runToCompletion(other, 'kubectl delete pod bb').text).toBe('pod "bb" deleted from default namespace\n');
    expect(shell.prompt).toBe(HOST_PROMPT);
    expect(run('kubectl get pod bb').text).toBe('Error from server (NotFound): pods "bb" not found\n');
  });
});

describe('exec and attach to a pod no node has taken', () => {
  it('kube-apiserver answers BadRequest: the pod does not have a host assigned', () => {
    const { run } = setup();
    run(`kubectl run p --image=busybox:1.36 --overrides='{"spec":{"nodeSelector":{"disk":"none"}}}' -- sleep 3600`);
    expect(run('kubectl get pod p --no-headers').text).toMatch(/^p\s+0\/1\s+Pending/);
    expect(run('kubectl exec p -- ls')).toMatchObject({ exitCode: 1, text: 'Error from server (BadRequest): pod p does not have a host assigned\n' });
    expect(run('kubectl exec -it p -- sh')).toMatchObject({ exitCode: 1, text: 'Error from server (BadRequest): pod p does not have a host assigned\n' });
    expect(run('kubectl attach p -i')).toMatchObject({ exitCode: 1, text: 'Error from server (BadRequest): pod p does not have a host assigned\n' });
  });
});
