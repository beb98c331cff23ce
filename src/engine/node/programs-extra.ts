/**
 * Program models of the public images tutorials commonly run (registry-extra.ts): small
 * echo/hello servers, and the interpreters whose default command is a REPL that exits at once
 * without a terminal (a pod of `node:22` or `eclipse-temurin:21` completes and crash-loops,
 * as in a real cluster).
 *
 * Sources: hashicorp/http-echo main.go (`-listen` default `:5678`, `-text`, "[INFO] server is
 * listening on"), traefik/whoami app.go (`Starting up on port 80`, the `Hostname:` / `IP:`
 * answer), jmalloc/echo-server as kicbase/echo-server (`Echo server listening on port 8080.`),
 * paulbouwer/hello-kubernetes server.js (port 8080), nginxdemos/hello (the plain-text page),
 * docker-library mysql/mariadb/mongo/memcached/rabbitmq docker-entrypoint.sh (the password
 * requirement and start-up lines).
 */
import type { LogLine, ModelEntry, Vars } from './programs';

/** Go's `log` package prefix (`2006/01/02 15:04:05 `), on stderr. */
const GOLOG = (line: string, at: LogLine['at'] = 'listen'): LogLine => ({ at, line: `{t:go} ${line}`, stream: 'stderr' });

function base(p: string | undefined): string {
  if (!p) return '';
  const i = p.lastIndexOf('/');
  return i === -1 ? p : p.slice(i + 1);
}

/** A Go flag's value: `-name=v`, `--name=v`, `-name v`. */
function goFlag(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    for (const p of [`-${name}`, `--${name}`]) {
      if (a === p) return argv[i + 1];
      if (a.startsWith(`${p}=`)) return a.slice(p.length + 1);
    }
  }
  return undefined;
}

/** Ports from `:8080` / `0.0.0.0:8080`. */
function listenPort(v: string | undefined, dflt: number): number {
  const m = /:(\d+)$/.exec(v ?? '');
  return m ? Number(m[1]) : dflt;
}

const MYSQL_NO_PASSWORD = (who: 'MySQL' | 'MariaDB', prefix: 'MYSQL' | 'MARIADB'): LogLine[] => [
  { at: 0, line: `{t:rfc3339nano} [Note] [Entrypoint]: Entrypoint script for ${who} Server {version} started.`, stream: 'stdout' },
  { at: 1, line: `{t:rfc3339nano} [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified`, stream: 'stderr' },
  { at: 1, line: `\tYou need to specify one of the following as an environment variable:`, stream: 'stderr' },
  { at: 1, line: `\t- ${prefix}_ROOT_PASSWORD`, stream: 'stderr' },
  { at: 1, line: `\t- ${prefix}_ALLOW_EMPTY_PASSWORD`, stream: 'stderr' },
  { at: 1, line: `\t- ${prefix}_RANDOM_ROOT_PASSWORD`, stream: 'stderr' },
];

/** The extra models, appended to `BUILTIN_MODELS` (first match wins). */
export const EXTRA_MODELS: readonly ModelEntry[] = [
  {
    name: 'http-echo',
    match: (argv, image) => {
      if (image.family !== 'http-echo') return undefined;
      const text = goFlag(argv, 'text');
      return { text: text ?? '', noText: text === undefined ? 1 : 0, 'env.__ECHO_PORT': listenPort(goFlag(argv, 'listen'), 5678) };
    },
    model: {
      name: 'http-echo',
      listen: [{ env: '__ECHO_PORT', default: 5678 }],
      startupMs: 5,
      memoryMiB: 3,
      goRuntime: true,
      logs: { start: [GOLOG('[INFO] server is listening on :{port}')] },
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: '{text}\n' } }],
    },
  },
  {
    name: 'whoami',
    match: (argv, image): Vars | undefined => {
      if (image.family !== 'whoami') return undefined;
      const port = Number(goFlag(argv, 'port'));
      return port ? { 'env.WHOAMI_PORT_NUMBER': port } : {};
    },
    model: {
      name: 'whoami',
      listen: [{ env: 'WHOAMI_PORT_NUMBER', default: 80 }],
      startupMs: 5,
      memoryMiB: 3,
      goRuntime: true,
      logs: { start: [GOLOG('Starting up on port {port}')] },
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: 'Hostname: {hostname}\nIP: 127.0.0.1\nIP: ::1\nIP: {podIP}\n' } }],
    },
  },
  {
    name: 'echo-server',
    match: (_argv, image) => (image.family === 'echo-server' ? {} : undefined),
    model: {
      name: 'echo-server',
      listen: [{ env: 'PORT', default: 8080 }],
      startupMs: 5,
      memoryMiB: 3,
      goRuntime: true,
      logs: { start: [{ at: 'listen', line: 'Echo server listening on port {port}.', stream: 'stdout' }] },
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: 'Request served by {hostname}\n' } }],
    },
  },
  {
    // The Kubernetes Basics tutorial's app (gcr.io/google-samples/kubernetes-bootcamp:v1,
    // jocatalin/kubernetes-bootcamp:v2): `CMD node server.js` (shell form, so `/bin/sh -c`).
    // server.js logs `Kubernetes Bootcamp App Started At: <Date> | Running On:  <host> \n` (console.log
    // joins its arguments with spaces, hence the double space, the trailing space and the blank
    // line) once listening, and one `Running On: ...` line per request; it answers every path with
    // `Hello Kubernetes bootcamp! | Running on: <host> | v=<N>` (the tutorial's expected output).
    name: 'kubernetes-bootcamp',
    match: (argv, image): Vars | undefined => {
      if (image.family !== 'kubernetes-bootcamp') return undefined;
      if (!argv.some((a) => /(?:^|\s)node server\.js$|^server\.js$/.test(a))) return undefined;
      return { bv: image.version.replace(/^v/, '') };
    },
    model: {
      name: 'kubernetes-bootcamp',
      listen: [8080],
      startupMs: 150,
      memoryMiB: 12,
      logs: {
        start: [{ at: 'listen', line: 'Kubernetes Bootcamp App Started At: {t:js} | Running On:  {hostname} \n\n', stream: 'stdout' }],
        access: 'Running On: {hostname} | Total Requests: {requests} | App Uptime: {uptime} seconds | Log Time: {t:js}',
        accessStream: 'stdout',
      },
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: 'Hello Kubernetes bootcamp! | Running on: {hostname} | v={bv}\n' } }],
    },
  },
  {
    // registry.k8s.io/hpa-example (the HPA walkthrough's php-apache): Apache with mod_php whose
    // index.php runs a million sqrt() calls and answers `OK!`.
    name: 'hpa-example',
    match: (_argv, image) => (image.family === 'hpa-example' ? {} : undefined),
    model: {
      name: 'hpa-example',
      listen: [80],
      startupMs: 200,
      memoryMiB: 12,
      logs: { access: '{remote} - - [{t:access}] "{method} {path} HTTP/1.1" {status} {bytes} "-" "{ua}"', accessStream: 'stdout' },
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: 'OK!' } }],
      signals: { SIGTERM: { exit: 0, afterMs: 50 } },
    },
  },
  {
    name: 'hello-kubernetes',
    match: (_argv, image) => (image.family === 'hello-kubernetes' ? {} : undefined),
    model: {
      name: 'hello-kubernetes',
      listen: [{ env: 'PORT', default: 8080 }],
      startupMs: 300,
      memoryMiB: 40,
      logs: { start: [{ at: 'listen', line: 'Listening on: http://{hostname}:{port}', stream: 'stdout' }] },
      routes: [
        {
          path: '*',
          handler: 'static',
          params: { status: 200, body: '<!DOCTYPE html>\n<html>\n<head>\n    <title>Hello Kubernetes!</title>\n</head>\n<body>\n  <div class="main">\n    <div class="content">\n      <div id="message">\n  Hello world!\n</div>\n<div id="info">\n  <table>\n    <tr>\n      <th>namespace:</th>\n      <td>{namespace}</td>\n    </tr>\n    <tr>\n      <th>pod:</th>\n      <td>{podName}</td>\n    </tr>\n    <tr>\n      <th>node:</th>\n      <td>{nodeName}</td>\n    </tr>\n  </table>\n</div>\n    </div>\n  </div>\n</body>\n</html>\n' },
        },
      ],
      signals: { SIGTERM: { exit: 143, afterMs: 5 } },
    },
  },
  {
    name: 'nginxdemos-hello',
    match: (argv, image) => {
      if (image.family !== 'nginxdemos-hello') return undefined;
      const b = base(argv[0]);
      return b === 'nginx' || b === 'docker-entrypoint.sh' ? {} : undefined;
    },
    model: {
      name: 'nginxdemos-hello',
      listen: [80],
      startupMs: 20,
      memoryMiB: 4,
      logs: { access: '{remote} - - [{t:access}] "{method} {path} HTTP/1.1" {status} {bytes} "-" "{ua}" "-"', accessStream: 'stdout' },
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: 'Server address: {podIP}:80\nServer name: {hostname}\nURI: /\n' } }],
      signals: { SIGQUIT: { exit: 0, afterMs: 20 }, SIGTERM: { exit: 0, afterMs: 5 } },
    },
  },
  ...(['mysql', 'mariadb'] as const).map(
    (family): ModelEntry => ({
      // docker-entrypoint.sh then mysqld / mariadbd; without a root password option the
      // entrypoint refuses to initialise the database and exits 1.
      name: family,
      match: (argv, image) => (image.family === family && ['mysqld', 'mariadbd', 'docker-entrypoint.sh'].includes(base(argv[0])) ? {} : undefined),
      model: {
        name: family,
        listen: family === 'mysql' ? [3306, 33060] : [3306],
        httpPorts: 'none',
        startupMs: 2500,
        memoryMiB: family === 'mysql' ? 360 : 90,
        requires: [
          family === 'mysql'
            ? { env: 'MYSQL_ROOT_PASSWORD', unlessEnv: 'MYSQL_ALLOW_EMPTY_PASSWORD', logs: MYSQL_NO_PASSWORD('MySQL', 'MYSQL') }
            : { env: 'MARIADB_ROOT_PASSWORD', unlessEnv: 'MARIADB_ALLOW_EMPTY_ROOT_PASSWORD', logs: MYSQL_NO_PASSWORD('MariaDB', 'MARIADB') },
        ],
        logs: {
          start: [
            { at: 0, line: `{t:rfc3339nano} [Note] [Entrypoint]: Entrypoint script for ${family === 'mysql' ? 'MySQL' : 'MariaDB'} Server {version} started.`, stream: 'stdout' },
            { at: 1, line: '{t:rfc3339nano} [Note] [Entrypoint]: Initializing database files', stream: 'stdout' },
            { at: 'listen', line: '{t:rfc3339nano} [Note] [Entrypoint]: MySQL init process done. Ready for start up.', stream: 'stdout' },
            { at: 'listen', line: family === 'mysql' ? "{t:rfc3339nano} 0 [System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '{version}'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL." : "{t:rfc3339nano} 0 [Note] mariadbd: ready for connections.", stream: 'stderr' },
          ],
        },
        signals: { SIGTERM: { exit: 0, afterMs: 800 } },
      },
    }),
  ),
  {
    // `node` / `jshell` / `zsh` without a terminal: stdin is empty, the REPL exits 0 at once.
    name: 'repl-no-tty',
    match: (argv, image) => {
      const b = base(argv[0]);
      if (argv.length !== 1) return undefined;
      if (b === 'node' || b === 'jshell' || (b === 'zsh' && image.family === 'netshoot')) return {};
      return undefined;
    },
    model: { name: 'repl', memoryMiB: 6, exitAfterMs: 80, exitCode: 0 },
  },
  {
    name: 'node-eval',
    match: (argv) => {
      if (base(argv[0]) !== 'node') return undefined;
      const i = argv.findIndex((a) => a === '-e' || a === '--eval' || a === '-p' || a === '--print');
      if (i === -1) return undefined;
      const code = argv[i + 1] ?? '';
      const m = /console\.log\(\s*["'`]([^"'`]*)["'`]\s*\)/.exec(code);
      return { out: m ? `${m[1]}\n` : '' };
    },
    model: { name: 'node-eval', memoryMiB: 30, logs: { start: [{ at: 'end', line: '{out}' }] }, exitAfterMs: 60, exitCode: 0 },
  },
];

/**
 * Families whose server is the default command and that no model above describes: the generic
 * server listening on these ports (mongod, memcached, rabbitmq-server, a mysqld with a password).
 */
export const EXTRA_FAMILY_SERVER_PORTS: Readonly<Record<string, readonly number[]>> = {
  mongo: [27017],
  memcached: [11211],
  rabbitmq: [5672, 15672, 25672],
};
