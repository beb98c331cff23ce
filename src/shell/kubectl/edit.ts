/**
 * `kubectl edit`: kubectl opens $EDITOR on the object's YAML (staging/src/k8s.io/kubectl/pkg/cmd/
 * edit/edit.go, cmd/util/editor). After resolving the object (NotFound and friends as kubectl
 * reports them): in the browser (the shell context has `openEditor`) one object opens in the YAML
 * editor's edit mode, which saves it as kubectl edit does (`deployment.apps/catalog edited`), and
 * the line ends with one line saying so; without an editor (headless runner, tests) or for
 * several objects it points to the YAML editor and exits 1.
 */
import { discover, fail, kindGroup, type Env } from './env';
import { parseResourceArgs } from './builder';

/** `kubectl edit TYPE NAME | TYPE/NAME`. */
export function edit(env: Env): number {
  if (env.flags.args.length === 0 && env.flags.list('filename').length === 0) {
    throw fail("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
  }
  discover(env, 4);
  const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: false, hasSelector: env.flags.str('selector') !== '' });
  const refs = sel.mode === 'names' ? sel.refs : [];
  for (const r of refs) env.api.get(r.type, r.type.namespaced ? env.namespace : undefined, r.name);
  if (refs.length === 1 && env.ctx.openEditor) {
    const r = refs[0];
    env.ctx.openEditor({ kind: r.type.kind, ...(r.type.namespaced ? { namespace: env.namespace } : {}), name: r.name });
    env.out(`${kindGroup(r.type)}/${r.name} opened in the YAML editor (Apply saves the edit)\n`);
    return 0;
  }
  const what = refs.length === 1 ? `${kindGroup(refs[0].type)}/${refs[0].name}` : 'objects';
  throw fail(`this terminal has no text editor: open ${what} in the playground's YAML editor to edit it (or use kubectl apply, scale, label, annotate or set image)`);
}
