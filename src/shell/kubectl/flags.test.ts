import { describe, expect, it } from 'vitest';
import { FlagError, FlagSet, parseGoDuration, suggestionsFor } from './flags';
import { COMMANDS } from './helpdata';
import { bench } from './testing';

describe('pflag parsing', () => {
  const fs = new FlagSet(COMMANDS.get.flags);

  it('takes --flag=value, --flag value, -n=x, -oyaml, combined bool shorthands and --', () => {
    const p = fs.parse(['pods', '--namespace', 'kube-system', '-oyaml', '-Aw', '--field-selector=a=b', '--', '-x']);
    expect(p.args).toEqual(['pods', '-x']);
    expect(p.argsLenAtDash).toBe(1);
    expect(p.values.get('namespace')).toBe('kube-system');
    expect(p.values.get('output')).toBe('yaml');
    expect(p.values.get('all-namespaces')).toBe(true);
    expect(p.values.get('watch')).toBe(true);
    expect(p.values.get('field-selector')).toBe('a=b');
    expect(fs.parse(['-n=x']).values.get('namespace')).toBe('x');
    expect(fs.parse(['-A=false']).values.get('all-namespaces')).toBe(false);
  });

  it('splits string slices on commas and accumulates them', () => {
    const p = fs.parse(['-L', 'app,tier', '-L', 'zone']);
    expect(p.values.get('label-columns')).toEqual(['app', 'tier', 'zone']);
  });

  it("reports pflag's errors", () => {
    const err = (args: string[]) => {
      try {
        fs.parse(args);
      } catch (e) {
        return (e as FlagError).message;
      }
      return '';
    };
    expect(err(['--foo'])).toBe('unknown flag: --foo');
    expect(err(['-z'])).toBe("unknown shorthand flag: 'z' in -z");
    expect(err(['-Az'])).toBe("unknown shorthand flag: 'z' in -z");
    expect(err(['-n'])).toBe("flag needs an argument: 'n' in -n");
    expect(err(['--namespace'])).toBe('flag needs an argument: --namespace');
    expect(err(['--all-namespaces=foo'])).toBe('invalid argument "foo" for "-A, --all-namespaces" flag: strconv.ParseBool: parsing "foo": invalid syntax');
    const scale = new FlagSet(COMMANDS.scale.flags);
    expect(() => scale.parse(['--replicas=abc'])).toThrow('invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax');
  });

  it('parses Go durations', () => {
    expect(parseGoDuration('30s')).toBe(30_000);
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('-1s')).toBe(-1000);
    expect(parseGoDuration('abc')).toBeUndefined();
  });

  it('suggests commands as cobra does', () => {
    expect(suggestionsFor('gett', ['create', 'set', 'get', 'delete'])).toEqual(['set', 'get']);
    expect(suggestionsFor('rm', ['get', 'delete'], { delete: ['rm'] })).toEqual(['delete']);
  });
});

describe('kubectl command line', () => {
  const b = bench();

  // Outputs below were captured from kubectl v1.32 (the flag layer did not change since).
  it('unknown flags', () => {
    expect(b.run('kubectl get pods --foo')).toEqual({ stdout: '', stderr: "Error: unknown flag: --foo\nSee 'kubectl get --help' for usage.\n", code: 1 });
    expect(b.run('kubectl scale --replcas=3 deploy/x')).toEqual({ stdout: '', stderr: "Error: unknown flag: --replcas\nSee 'kubectl scale --help' for usage.\n", code: 1 });
    expect(b.run('kubectl get pods -z').stderr).toBe("Error: unknown shorthand flag: 'z' in -z\nSee 'kubectl get --help' for usage.\n");
    expect(b.run('kubectl get pods -n').stderr).toBe("Error: flag needs an argument: 'n' in -n\nSee 'kubectl get --help' for usage.\n");
    expect(b.run('kubectl scale deploy web --replicas=abc').stderr).toBe(
      'Error: invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax\nSee \'kubectl scale --help\' for usage.\n',
    );
  });

  it('unknown commands, with suggestions', () => {
    expect(b.run('kubectl xyzzy')).toEqual({ stdout: '', stderr: 'Error: unknown command "xyzzy" for "kubectl"\n', code: 1 });
    expect(b.run('kubectl gett pods').stderr).toBe('Error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tset\n\tget\n\n');
    expect(b.run('kubectl rollout foo')).toEqual({ stdout: '', stderr: 'error: unknown command "foo"\nSee \'kubectl rollout -h\' for help and examples\n', code: 1 });
    expect(b.run('kubectl create foo').stderr).toBe("error: Unexpected args: [foo]\nSee 'kubectl create -h' for help and examples\n");
  });

  it('help', () => {
    const r = b.run('kubectl scale --help');
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('Set a new size for a deployment, replica set, replication controller, or stateful set.\n')).toBe(true);
    expect(r.stdout).toContain('Usage:\n  kubectl scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME) [options]\n');
    expect(b.run('kubectl get -h').stdout).toBe(COMMANDS.get.help);
    expect(b.run('kubectl help get').stdout).toBe(COMMANDS.get.help);
    expect(b.run('kubectl').stdout).toBe(COMMANDS[''].help);
    expect(b.run('kubectl rollout').stdout).toBe(COMMANDS.rollout.help);
  });

  it('global flags before the command', () => {
    const r = b.run('kubectl -n kube-system get pods');
    expect(r.stderr).toBe('No resources found in kube-system namespace.\n');
  });

  it('missing required flags are logged by cobra through klog', () => {
    expect(b.run('kubectl scale deploy/web').stderr).toMatch(/^E0105 06:00:00\.\d{6} +\d+ run\.go:72\] "command failed" err="required flag\(s\) \\"replicas\\" not set"\n$/);
    expect(b.run('kubectl create deployment x').stderr).toMatch(/run\.go:72\] "command failed" err="required flag\(s\) \\"image\\" not set"\n$/);
  });

  it('unimplemented kubectl commands say so', () => {
    expect(b.run('kubectl port-forward svc/web 8080:80')).toEqual({ stdout: '', stderr: 'error: "kubectl port-forward" is not available in this playground\n', code: 1 });
  });

  it('--record is deprecated but accepted', () => {
    b.c.apply('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: rec\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: rec}\n  template:\n    metadata:\n      labels: {app: rec}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n');
    const r = b.run('kubectl scale deploy rec --replicas=2 --record');
    expect(r).toEqual({ stdout: 'deployment.apps/rec scaled\n', stderr: 'Flag --record has been deprecated, --record will be removed in the future\n', code: 0 });
  });
});
