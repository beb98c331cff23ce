/**
 * The tutorial images (registry-extra.ts): they resolve with realistic sizes and configs, tag
 * lines via tagPattern, unknown tags still fail as containerd reports; and the program a
 * container of each runs (programs-extra.ts).
 */
import { describe, expect, it } from 'vitest';
import { ImageRegistry } from './registry';
import { ProgramRegistry } from './programs';

const reg = new ImageRegistry();
const pull = (ref: string) => reg.resolve(ref);

describe('public tutorial images', () => {
  it.each([
    'redis:7', 'redis:7.2.4', 'mysql:8', 'mysql:8.0.36', 'mariadb:11', 'mongo:7', 'postgres:16', 'postgres:14-alpine', 'httpd:2.4-alpine', 'alpine:3', 'alpine:3.20.3',
    'ubuntu:22.04', 'python:3.11-slim', 'node:20-alpine', 'node:22.11.0', 'golang:1.23', 'openjdk:17-jdk-slim', 'eclipse-temurin:21-jre', 'memcached:1.6', 'rabbitmq:3-management',
    'traefik/whoami', 'curlimages/curl', 'curlimages/curl:8.5.0', 'hashicorp/http-echo', 'hashicorp/http-echo:1.0', 'nginxdemos/hello', 'registry.k8s.io/echoserver:1.4',
    'registry.k8s.io/e2e-test-images/agnhost:2.39', 'gcr.io/google-samples/hello-app:1.0', 'paulbouwer/hello-kubernetes:1.10', 'kicbase/echo-server:1.0', 'nicolaka/netshoot', 'busybox',
  ])('%s pulls', (ref) => {
    const r = pull(ref);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.image.size).toBeGreaterThan(1_000_000);
  });

  it.each(['redis:99', 'mysql:7', 'node:99', 'traefik/whoami:v9', 'hashicorp/http-echo:2.0', 'curlimages/curl:banana'])('%s is not found', (ref) => {
    const r = pull(ref);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/: not found$/);
  });

  it('configs follow the Dockerfiles: mysql via docker-entrypoint.sh mysqld on 3306, curl as user 100, http-echo on 5678', () => {
    const ok = (ref: string) => {
      const r = pull(ref);
      if (!r.ok) throw new Error(ref);
      return r.image;
    };
    expect(ok('mysql:8.4').config).toMatchObject({ entrypoint: ['docker-entrypoint.sh'], cmd: ['mysqld'], exposedPorts: [3306, 33060] });
    expect(ok('mysql:8').version).toBe('8.4.6');
    expect(ok('curlimages/curl').config).toMatchObject({ entrypoint: ['/entrypoint.sh'], cmd: ['curl'], user: '100' });
    expect(ok('hashicorp/http-echo').config).toMatchObject({ entrypoint: ['/http-echo'], exposedPorts: [5678] });
    expect(ok('redis:7').version).toBe('7.4.5');
  });
});

describe('programs of the tutorial images', () => {
  const programs = new ProgramRegistry();
  const model = (ref: string, argv: string[]) => {
    const r = pull(ref);
    if (!r.ok) throw new Error(ref);
    const m = programs.findModel(argv, r.image);
    return 'entry' in m ? m.entry.model.name : `shell:${m.shellArgv.join(' ')}`;
  };

  it('servers: redis, mysql, http-echo, whoami, echo-server, hello-kubernetes; mongo and rabbitmq the generic server on their ports', () => {
    expect(model('redis:7', ['docker-entrypoint.sh', 'redis-server'])).toBe('redis');
    expect(model('mysql:8', ['docker-entrypoint.sh', 'mysqld'])).toBe('mysql');
    expect(model('mariadb:11', ['docker-entrypoint.sh', 'mariadbd'])).toBe('mariadb');
    expect(model('hashicorp/http-echo', ['/http-echo', '-text=hello'])).toBe('http-echo');
    expect(model('traefik/whoami', ['/whoami'])).toBe('whoami');
    expect(model('kicbase/echo-server:1.0', ['/bin/echo-server'])).toBe('echo-server');
    expect(model('paulbouwer/hello-kubernetes:1.10', ['dumb-init', '--', 'node', 'server.js'])).toBe('hello-kubernetes');
    expect(model('mongo:7', ['docker-entrypoint.sh', 'mongod'])).toBe('mongo-server');
    expect(model('rabbitmq:4', ['docker-entrypoint.sh', 'rabbitmq-server'])).toBe('rabbitmq-server');
  });

  it('curl runs curl and exits; REPL defaults (node, jshell) exit at once without a terminal', () => {
    expect(model('curlimages/curl', ['/entrypoint.sh', 'curl', '-s', 'http://web'])).toBe('shell:curl -s http://web');
    expect(model('curlimages/curl', ['/entrypoint.sh', '-s', 'http://web'])).toBe('shell:curl -s http://web');
    expect(model('node:22', ['docker-entrypoint.sh', 'node'])).toBe('repl');
    expect(model('eclipse-temurin:21', ['jshell'])).toBe('repl');
    expect(model('golang:1.25', ['bash'])).toBe('shell:bash');
  });
});
