/**
 * Tab completion for the playground shell's terminal: given the input line and the cursor, which
 * word is being completed and what it can become. Pure: the live parts (commands of the current
 * environment, the API's discovery, object names) come in through a `CompletionSource`.
 *
 * What it completes, the way kubectl's cobra completion (`kubectl __complete`,
 * staging/src/k8s.io/kubectl/pkg/util/completion/completion.go) and bash do:
 * - the command word: the shell's known commands (`help`'s list) and aliases;
 * - `kubectl` subcommands (and the subcommands of `create`, `rollout`, `set`, `config`), flags of
 *   the subcommand and kubectl's global flags (src/shell/kubectl/helpdata.ts, from kubectl's
 *   `--help`), flag values (`-n` namespaces, `-o` output formats, `-f` files);
 * - resource types after `get`/`describe`/`delete`/... by their plural name as discovery serves
 *   it (`kubectl get depl` -> `deployments`, CRDs included), then object names in the namespace
 *   `-n` names (`default` otherwise), `TYPE/NAME` forms, pods for `logs`/`exec`, nodes for
 *   `cordon`/`drain`/`taint`;
 * - `docker` subcommands and the node containers (`docker exec -it k8s-lab-<TAB>`), `kind`
 *   subcommands and its node names;
 * - otherwise, file names of the working directory.
 */
import { COMMANDS, GLOBAL_FLAGS, type FlagDef } from './kubectl/helpdata';

/** A served resource type, as discovery (`kubectl api-resources`) lists it. */
export interface CompletionResource {
  /** Plural (`deployments`): what completion offers. */
  resource: string;
  singular: string;
  kind: string;
  shortNames: readonly string[];
  group: string;
  namespaced: boolean;
}

/** What completion may ask of the shell and the cluster (the worker builds one per request). */
export interface CompletionSource {
  /** Command names known in the shell's current environment (builtins, filters, commands, aliases). */
  commands: readonly string[];
  /** Served resource types (built-in kinds and CRDs). */
  resources: readonly CompletionResource[];
  /**
   * Names of the objects of `resource` (plural, in `group`) in `namespace` (ignored for
   * cluster-scoped types). Sorted or not: completion sorts.
   */
  names(resource: string, group: string, namespace: string): readonly string[];
  /** The node containers `docker` knows (`k8s-lab-control-plane`, ...). */
  containers(): readonly string[];
  /** File names of the working directory (`-f` values, arguments of other commands). */
  files(): readonly string[];
}

/** The result: replace `line.slice(start, end)` with one of `candidates` (sorted, unique). */
export interface Completion {
  start: number;
  end: number;
  candidates: string[];
}

/** `kubectl get -o` values (kubectl get's `--output` help text). */
const OUTPUT_FORMATS = ['custom-columns=', 'custom-columns-file=', 'go-template=', 'go-template-file=', 'json', 'jsonpath=', 'jsonpath-as-json=', 'jsonpath-file=', 'name', 'template=', 'templatefile=', 'wide', 'yaml'];

/** `docker` subcommands the playground's docker implements (src/shell/docker.ts). */
const DOCKER_SUBCOMMANDS = ['container', 'cp', 'exec', 'kill', 'network', 'ps', 'restart', 'start', 'stop', 'version'];
/** docker subcommands whose positional arguments are containers. */
const DOCKER_CONTAINER_ARGS = new Set(['exec', 'kill', 'restart', 'start', 'stop']);
/** docker exec flags that take a value (`-e K=V`, `-w DIR`, `-u USER`). */
const DOCKER_VALUE_FLAGS = new Set(['-e', '--env', '-w', '--workdir', '-u', '--user']);

/** `kind` subcommands (src/shell/kind.ts) and the words after them. */
const KIND_WORDS: Record<string, string[]> = {
  '': ['create', 'delete', 'get', 'load', 'version'],
  create: ['cluster'],
  delete: ['cluster'],
  get: ['clusters', 'kubeconfig', 'nodes'],
  load: ['docker-image'],
};

/** kubectl subcommands whose first positional is a resource type (then names, or TYPE/NAME). */
const TYPE_THEN_NAMES = new Set([
  'get', 'describe', 'delete', 'edit', 'label', 'annotate', 'scale', 'patch', 'wait', 'expose',
  'rollout status', 'rollout history', 'rollout undo', 'rollout restart', 'rollout pause', 'rollout resume', 'set image', 'explain',
]);
/** kubectl subcommands whose positionals are pods. */
const POD_ARGS = new Set(['logs', 'exec', 'attach', 'port-forward']);
/** kubectl subcommands whose positionals are nodes. */
const NODE_ARGS = new Set(['cordon', 'uncordon', 'drain']);

/** Words of a shell segment, with offsets. */
interface Tok {
  text: string;
  start: number;
}

/**
 * Split the last simple command before `cursor` into words (quotes removed), ending at the word
 * under the cursor (possibly empty). Segments end at unquoted `|`, `;`, `&`, `(` and newlines.
 */
function wordsBefore(line: string, cursor: number): Tok[] {
  let words: Tok[] = [];
  let cur: Tok | undefined;
  let quote: string | undefined;
  for (let i = 0; i < cursor; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else cur!.text += c;
      continue;
    }
    if (c === "'" || c === '"') {
      cur ??= { text: '', start: i };
      quote = c;
      continue;
    }
    if (c === '\\' && i + 1 < cursor) {
      cur ??= { text: '', start: i };
      cur.text += line[++i];
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (cur) words.push(cur);
      cur = undefined;
      continue;
    }
    if (c === '|' || c === ';' || c === '&' || c === '(' || c === '\n') {
      words = [];
      cur = undefined;
      continue;
    }
    cur ??= { text: '', start: i };
    cur.text += c;
  }
  words.push(cur ?? { text: '', start: cursor });
  return words;
}

/** The flags of a kubectl command path plus the global ones. */
function kubectlFlags(path: string): readonly FlagDef[] {
  return [...(COMMANDS[path]?.flags ?? []), ...GLOBAL_FLAGS];
}

/** Whether `word` is a flag that takes its value in the next word (`-n`, `--namespace`, not `--namespace=x` or bools). */
function takesValue(word: string, flags: readonly FlagDef[]): boolean {
  if (!word.startsWith('-') || word.includes('=')) return false;
  const f = word.startsWith('--') ? flags.find((d) => d[0] === word.slice(2)) : flags.find((d) => d[1] !== '' && d[1] === word.slice(1));
  return f !== undefined && f[2] !== 'bool';
}

/** The long name of a flag word (`-n` -> `namespace`), if known. */
function flagName(word: string, flags: readonly FlagDef[]): string | undefined {
  const w = word.split('=')[0];
  if (w.startsWith('--')) return w.slice(2);
  return flags.find((d) => d[1] !== '' && d[1] === w.slice(1))?.[0];
}

function sortedUnique(xs: Iterable<string>): string[] {
  return [...new Set(xs)].sort();
}

function matching(prefix: string, xs: Iterable<string>): string[] {
  return sortedUnique([...xs].filter((x) => x.startsWith(prefix)));
}

/** Resolve what a person typed as a type (`deploy`, `Deployment`, `deployments.apps`), as the API's registry does. */
function resolveType(typed: string, resources: readonly CompletionResource[]): CompletionResource | undefined {
  const lower = typed.toLowerCase();
  const dot = lower.indexOf('.');
  const name = dot < 0 ? lower : lower.slice(0, dot);
  const group = dot < 0 ? undefined : lower.slice(dot + 1);
  return resources.find(
    (t) => (group === undefined || t.group === group) && (t.resource === name || t.singular === name || t.kind.toLowerCase() === name || t.shortNames.includes(name)),
  );
}

function kubectl(args: Tok[], word: Tok, src: CompletionSource, after: string): string[] {
  // Walk the words: flags (and their values), the command path, then positionals. A namespace
  // given after the cursor (`kubectl delete pod ca<TAB> -n bookshop`) counts too.
  let path = '';
  let namespace = /(?:^|\s)(?:-n|--namespace)(?:=|\s+)([^\s|;&]+)/.exec(after.split(/[|;&\n]/)[0])?.[1] ?? 'default';
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i].text;
    const flags = kubectlFlags(path);
    if (w.startsWith('-') && w.length > 1) {
      const name = flagName(w, flags);
      const value = w.includes('=') ? w.slice(w.indexOf('=') + 1) : takesValue(w, flags) ? args[++i]?.text : undefined;
      if (name === 'namespace' && value) namespace = value;
      continue;
    }
    const next = path ? `${path} ${w}` : w;
    if (positionals.length === 0 && (COMMANDS[next] !== undefined || (path === '' && w !== ''))) path = next;
    else positionals.push(w);
  }
  const flags = kubectlFlags(path);
  const prev = args[args.length - 1]?.text;
  const text = word.text;

  // A flag's value.
  if (prev !== undefined && takesValue(prev, flags)) return flagValues(flagName(prev, flags), '', text, src, namespace);
  if (text.startsWith('--') && text.includes('=')) {
    const eq = text.indexOf('=');
    return flagValues(flagName(text, flags), text.slice(0, eq + 1), text.slice(eq + 1), src, namespace);
  }
  // A flag.
  if (text.startsWith('-')) {
    const longs = flags.map((f) => `--${f[0]}`);
    if (text === '-' || text.startsWith('--')) return matching(text, longs);
    return matching(text, flags.filter((f) => f[1] !== '').map((f) => `-${f[1]}`));
  }
  // The command path.
  if (path === '') return matching(text, Object.keys(COMMANDS).filter((k) => k !== '' && !k.includes(' ')));
  const children = Object.keys(COMMANDS)
    .filter((k) => k.startsWith(`${path} `) && !k.slice(path.length + 1).includes(' '))
    .map((k) => k.slice(path.length + 1));
  if (children.length > 0 && positionals.length === 0 && path !== 'create') return matching(text, children);
  if (path === 'create' && positionals.length === 0) return matching(text, children);

  const typeNames = sortedUnique(src.resources.map((r) => r.resource));
  const namesOf = (t: CompletionResource) => src.names(t.resource, t.group, namespace);

  if (TYPE_THEN_NAMES.has(path)) {
    if (positionals.length === 0) {
      // `TYPE/NAME`, `TYPE,TYPE`, or a type.
      const slash = text.indexOf('/');
      if (slash >= 0) {
        const t = resolveType(text.slice(0, slash), src.resources);
        if (!t) return [];
        const prefix = text.slice(0, slash + 1);
        return matching(text, namesOf(t).map((n) => prefix + n));
      }
      const comma = text.lastIndexOf(',');
      const head = comma >= 0 ? text.slice(0, comma + 1) : '';
      return matching(text, typeNames.map((r) => head + r));
    }
    if (path === 'explain') return [];
    const first = positionals[0];
    if (first.includes('/') || first.includes(',')) return [];
    const t = resolveType(first, src.resources);
    return t ? matching(text, namesOf(t)) : [];
  }
  if (POD_ARGS.has(path)) {
    if (positionals.length > 0) return [];
    const pods = resolveType('pods', src.resources);
    return pods ? matching(text, namesOf(pods)) : [];
  }
  if (NODE_ARGS.has(path) || (path === 'taint' && positionals.length === 1)) {
    const nodes = resolveType('nodes', src.resources);
    return nodes ? matching(text, namesOf(nodes)) : [];
  }
  if (path === 'taint' && positionals.length === 0) return matching(text, ['nodes']);
  if (path === 'top' && positionals.length === 0) return matching(text, ['node', 'pod']);
  return [];
}

/** Values of flag `name`: `-n` namespaces, `-o` formats, `-f` files. */
function flagValues(name: string | undefined, head: string, text: string, src: CompletionSource, namespace: string): string[] {
  let values: readonly string[] = [];
  if (name === 'namespace') values = src.names('namespaces', '', namespace);
  else if (name === 'output') values = OUTPUT_FORMATS;
  else if (name === 'filename' || name === 'kustomize') values = src.files();
  return matching(head + text, values.map((v) => head + v));
}

function docker(args: Tok[], word: Tok, src: CompletionSource): string[] {
  const text = word.text;
  if (args.length === 0) return matching(text, DOCKER_SUBCOMMANDS);
  const sub = args[0].text;
  if (!DOCKER_CONTAINER_ARGS.has(sub)) return sub === 'network' && args.length === 1 ? matching(text, ['connect', 'disconnect']) : [];
  if (text.startsWith('-')) return sub === 'exec' ? matching(text, ['-i', '-it', '-t', '-e', '-w', '-u', '--env', '--interactive', '--tty', '--workdir', '--user']) : [];
  const positionals: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const w = args[i].text;
    if (w.startsWith('-')) {
      if (DOCKER_VALUE_FLAGS.has(w)) i++;
      continue;
    }
    positionals.push(w);
  }
  // `docker exec` takes one container then a command; the others take containers.
  if (sub === 'exec' && positionals.length > 0) return positionals.length === 1 ? matching(text, ['bash', 'crictl', 'journalctl', 'ps', 'sh', 'systemctl']) : [];
  return matching(text, src.containers());
}

function kind(args: Tok[], word: Tok, src: CompletionSource): string[] {
  const text = word.text;
  if (text.startsWith('-')) return matching(text, ['--name', '--nodes', '--help']);
  const words = args.map((a) => a.text).filter((w) => !w.startsWith('-'));
  if (args.length > 0 && (args[args.length - 1].text === '--nodes' || args[args.length - 1].text === '--name')) {
    return args[args.length - 1].text === '--nodes' ? matching(text, src.containers()) : matching(text, ['k8s-lab']);
  }
  const key = words.length === 0 ? '' : words.length === 1 ? words[0] : undefined;
  return key !== undefined && KIND_WORDS[key] ? matching(text, KIND_WORDS[key]) : [];
}

/**
 * Complete `line` at `cursor` (a UTF-16 offset into `line`). Returns the range of the word being
 * completed (`start` to `end` = `cursor`) and the words it may become; no candidates when nothing
 * fits. The caller inserts a single candidate (with a space after it unless it ends in `/` or
 * `=`), the common prefix of several, or lists them.
 */
export function complete(line: string, cursor: number, src: CompletionSource): Completion {
  const at = Math.max(0, Math.min(cursor, line.length));
  const words = wordsBefore(line, at);
  const word = words[words.length - 1];
  const before = words.slice(0, -1);
  const result = (candidates: string[]): Completion => ({ start: word.start, end: at, candidates });
  // Skip `VAR=x` assignments and `sudo`/`timeout N`/`watch` before the command word.
  let i = 0;
  while (i < before.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(before[i].text)) i++;
  while (i < before.length && ['sudo', 'watch', 'time', 'timeout', 'xargs'].includes(before[i].text)) i += before[i].text === 'timeout' ? 2 : 1;
  if (i >= before.length) return result(word.text.includes('/') ? [] : matching(word.text, src.commands));
  const command = before[i].text;
  const args = before.slice(i + 1);
  if (command === 'kubectl' || command === 'k') return result(kubectl(args, word, src, line.slice(at)));
  if (command === 'docker') return result(docker(args, word, src));
  if (command === 'kind') return result(kind(args, word, src));
  if (word.text.startsWith('-')) return result([]);
  return result(matching(word.text, src.files()));
}

