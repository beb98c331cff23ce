/**
 * More public images a Kubernetes tutorial commonly runs, added to `PUBLIC_REPOSITORIES`
 * (registry.ts): databases and queues (mysql, mariadb, mongo, memcached, rabbitmq), language
 * runtimes (node, golang, eclipse-temurin, openjdk), and the small echo/hello servers of
 * tutorials (traefik/whoami, hashicorp/http-echo, nginxdemos/hello, kicbase/echo-server,
 * paulbouwer/hello-kubernetes), curlimages/curl and nicolaka/netshoot.
 *
 * Each entry mirrors the image's Dockerfile (docker-library official-images, or the project's
 * own): ENTRYPOINT / CMD / EXPOSE / USER, and whether it is Debian-, Alpine- (busybox userland)
 * or scratch-based. Sizes are the compressed linux/amd64 sizes Docker Hub lists, rounded;
 * release lines are covered by `tagPattern` (any `8.4.x` of mysql, any `22.x.y` of node ...),
 * and a tag outside them fails to pull (`not found`) as before. Versions are the latest patch
 * of each line as of late 2025.
 */
import type { RepositoryInfo } from './registry';

const MB = 1_000_000;

/** The extra repositories (see the file comment). */
export const EXTRA_PUBLIC_REPOSITORIES: readonly RepositoryInfo[] = [
  {
    repository: 'docker.io/library/mysql',
    family: 'mysql',
    userland: 'debian',
    binaries: ['mysqld', 'mysql', 'mysqladmin', 'mysqldump', 'gosu', 'docker-entrypoint.sh'],
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['mysqld'], exposedPorts: [3306, 33060] },
    tags: {
      '5.7': { size: 137_100_443, version: '5.7.44' },
      '8.0': { size: 234_420_150, version: '8.0.43' },
      '8.4': { size: 233_850_011, version: '8.4.6' },
      '8': { size: 233_850_011, alias: '8.4' },
      lts: { size: 233_850_011, alias: '8.4' },
      '9.4': { size: 240_512_874, version: '9.4.0' },
      '9': { size: 240_512_874, alias: '9.4' },
      latest: { size: 240_512_874, alias: '9.4' },
    },
    tagPattern: /^(?:5\.7|8\.0|8\.4|9\.[0-4])\.\d{1,2}(?:-oracle|-debian)?$/,
    patternSize: 234 * MB,
  },
  {
    repository: 'docker.io/library/mariadb',
    family: 'mariadb',
    userland: 'debian',
    binaries: ['mariadbd', 'mariadb', 'mysql', 'mariadb-admin', 'gosu', 'docker-entrypoint.sh'],
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['mariadbd'], exposedPorts: [3306] },
    tags: {
      '10.6': { size: 118_200_334, version: '10.6.23' },
      '10.11': { size: 120_004_871, version: '10.11.14' },
      '11.4': { size: 122_911_590, version: '11.4.8' },
      '11.8': { size: 124_301_226, version: '11.8.3' },
      '11': { size: 124_301_226, alias: '11.8' },
      lts: { size: 124_301_226, alias: '11.8' },
      latest: { size: 124_301_226, alias: '11.8' },
    },
    tagPattern: /^(?:10\.(?:6|11)|11\.[4-8])\.\d{1,2}(?:-(?:jammy|noble|ubi))?$/,
    patternSize: 121 * MB,
  },
  {
    repository: 'docker.io/library/mongo',
    family: 'mongo',
    userland: 'debian',
    binaries: ['mongod', 'mongosh', 'gosu', 'docker-entrypoint.sh'],
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['mongod'], exposedPorts: [27017] },
    tags: {
      '6.0': { size: 246_780_112, version: '6.0.26' },
      '7.0': { size: 253_114_590, version: '7.0.24' },
      '7': { size: 253_114_590, alias: '7.0' },
      '8.0': { size: 283_601_347, version: '8.0.13' },
      '8': { size: 283_601_347, alias: '8.0' },
      latest: { size: 283_601_347, alias: '8.0' },
    },
    tagPattern: /^(?:[4-8]\.\d)(?:\.\d{1,2})?(?:-(?:jammy|noble|focal))?$/,
    patternSize: 250 * MB,
  },
  {
    repository: 'docker.io/library/memcached',
    family: 'memcached',
    userland: 'debian',
    binaries: ['memcached', 'docker-entrypoint.sh'],
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['memcached'], user: 'memcache', exposedPorts: [11211] },
    tags: {
      '1.6': { size: 31_904_228, version: '1.6.39' },
      '1': { size: 31_904_228, alias: '1.6' },
      alpine: { size: 5_230_118, version: '1.6.39' },
      latest: { size: 31_904_228, alias: '1.6' },
    },
    tagPattern: /^1\.6(?:\.\d{1,2})?(?:-alpine(?:3\.\d+)?|-bookworm|-trixie)?$/,
    patternSize: 31 * MB,
  },
  {
    repository: 'docker.io/library/rabbitmq',
    family: 'rabbitmq',
    userland: 'debian',
    binaries: ['rabbitmq-server', 'rabbitmqctl', 'rabbitmq-plugins', 'rabbitmq-diagnostics', 'docker-entrypoint.sh'],
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['rabbitmq-server'], exposedPorts: [4369, 5671, 5672, 15691, 15692, 25672] },
    tags: {
      '3': { size: 92_004_411, version: '3.13.7' },
      '3-management': { size: 108_330_512, version: '3.13.7' },
      '4': { size: 95_112_006, version: '4.1.4' },
      '4-management': { size: 111_802_337, version: '4.1.4' },
      management: { size: 111_802_337, alias: '4-management' },
      latest: { size: 95_112_006, alias: '4' },
    },
    tagPattern: /^(?:3\.1[0-3]|4\.[01])(?:\.\d{1,2})?(?:-management)?(?:-alpine)?$/,
    patternSize: 95 * MB,
  },
  {
    repository: 'docker.io/library/node',
    family: 'node',
    userland: 'debian',
    binaries: ['node', 'npm', 'npx', 'yarn', 'curl', 'wget', 'git', 'docker-entrypoint.sh'],
    binariesComplete: true,
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['node'] },
    tags: {
      '18': { size: 385_611_204, version: '18.20.8' },
      '20': { size: 388_004_519, version: '20.19.5' },
      '22': { size: 391_220_873, version: '22.20.0' },
      '24': { size: 396_811_402, version: '24.9.0' },
      lts: { size: 391_220_873, alias: '22' },
      latest: { size: 396_811_402, alias: '24' },
      '20-alpine': { size: 43_102_557, version: '20.19.5' },
      '22-alpine': { size: 45_880_129, version: '22.20.0' },
      alpine: { size: 47_020_316, version: '24.9.0' },
      '22-slim': { size: 78_330_014, version: '22.20.0' },
      slim: { size: 80_112_775, version: '24.9.0' },
    },
    tagPattern: /^(?:1[4-9]|2[0-5])(?:\.\d{1,2}){0,2}(?:-(?:alpine(?:3\.\d+)?|slim|bookworm(?:-slim)?|bullseye(?:-slim)?|trixie(?:-slim)?))?$/,
    patternSize: 390 * MB,
  },
  {
    repository: 'docker.io/library/golang',
    family: 'golang',
    userland: 'debian',
    binaries: ['go', 'gofmt', 'git', 'curl', 'wget', 'gcc', 'make'],
    binariesComplete: true,
    config: { cmd: ['bash'], workingDir: '/go', env: ['GOLANG_VERSION=1.25.1', 'GOPATH=/go', 'PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'] },
    tags: {
      '1.23': { size: 292_901_544, version: '1.23.12' },
      '1.24': { size: 297_660_218, version: '1.24.7' },
      '1.25': { size: 301_005_912, version: '1.25.1' },
      '1': { size: 301_005_912, alias: '1.25' },
      latest: { size: 301_005_912, alias: '1.25' },
    },
    tagPattern: /^1\.(?:1[89]|2[0-5])(?:\.\d{1,2})?(?:-(?:bookworm|bullseye|trixie))?$/,
    patternSize: 295 * MB,
  },
  ...(['eclipse-temurin', 'openjdk'] as const).map(
    (name): RepositoryInfo => ({
      repository: `docker.io/library/${name}`,
      family: 'java',
      userland: 'debian',
      binaries: ['java', 'javac', 'jshell', 'jar', 'keytool'],
      config: { cmd: ['jshell'], env: [`JAVA_HOME=/opt/java/openjdk`] },
      tags:
        name === 'openjdk'
          ? {
              '17': { size: 232_112_003, version: '17.0.2' },
              '17-jdk-slim': { size: 227_408_116, version: '17.0.2' },
              '21': { size: 260_902_418, version: '21.0.2' },
              '21-jdk-slim': { size: 221_309_770, version: '21.0.2' },
              '22': { size: 262_110_204, version: '22.0.2' },
            }
          : {
              '17': { size: 165_320_906, version: '17.0.16' },
              '21': { size: 192_401_733, version: '21.0.8' },
              '25': { size: 199_030_218, version: '25.0.0' },
              latest: { size: 199_030_218, alias: '25' },
              '17-jre': { size: 86_011_408, version: '17.0.16' },
              '21-jre': { size: 90_204_512, version: '21.0.8' },
              '21-jdk-alpine': { size: 160_114_337, version: '21.0.8' },
            },
      tagPattern: name === 'openjdk' ? /^(?:11|17|18|19|20|21|22|23|24)(?:-jdk)?(?:-slim(?:-bookworm|-bullseye)?)?$/ : /^(?:8|11|17|21|25)(?:u\d+|\.\d+\.\d+(?:_\d+)?)?(?:-(?:jdk|jre))?(?:-(?:jammy|noble|alpine|focal|ubi9-minimal))?$/,
      patternSize: 190 * MB,
    }),
  ),
  // ---- Docker Hub, tutorial images of other namespaces ------------------------------------
  {
    repository: 'docker.io/traefik/whoami',
    family: 'whoami',
    userland: 'scratch',
    config: { entrypoint: ['/whoami'], exposedPorts: [80] },
    tags: {
      'v1.10': { size: 3_129_012, version: 'v1.10.4' },
      'v1.10.4': { size: 3_129_012, alias: 'v1.10' },
      'v1.11': { size: 3_244_806, version: 'v1.11.0' },
      'v1.11.0': { size: 3_244_806, alias: 'v1.11' },
      latest: { size: 3_244_806, alias: 'v1.11' },
    },
  },
  {
    repository: 'docker.io/curlimages/curl',
    family: 'curl',
    userland: 'busybox',
    binaries: ['curl', 'entrypoint.sh'],
    binariesComplete: true,
    config: { entrypoint: ['/entrypoint.sh'], cmd: ['curl'], user: '100' },
    tags: {
      '8.11.1': { size: 10_090_431 },
      '8.14.1': { size: 10_231_118 },
      '8.16.0': { size: 10_402_665 },
      latest: { size: 10_402_665, alias: '8.16.0' },
    },
    tagPattern: /^[78]\.\d{1,2}\.\d{1,2}$/,
    patternSize: 10 * MB,
  },
  {
    repository: 'docker.io/hashicorp/http-echo',
    family: 'http-echo',
    userland: 'scratch',
    config: { entrypoint: ['/http-echo'], exposedPorts: [5678] },
    tags: {
      '0.2.3': { size: 2_513_105 },
      '1.0': { size: 3_704_211, version: '1.0.0' },
      '1.0.0': { size: 3_704_211, alias: '1.0' },
      latest: { size: 3_704_211, alias: '1.0' },
    },
  },
  {
    repository: 'docker.io/nginxdemos/hello',
    family: 'nginxdemos-hello',
    userland: 'busybox',
    binaries: ['nginx'],
    config: { entrypoint: ['/docker-entrypoint.sh'], cmd: ['nginx', '-g', 'daemon off;'], stopSignal: 'SIGQUIT', exposedPorts: [80] },
    tags: { latest: { size: 20_811_004, version: '0.4' }, '0.4': { size: 20_811_004, alias: 'latest' }, 'plain-text': { size: 20_810_872, version: '0.4' } },
  },
  {
    repository: 'docker.io/kicbase/echo-server',
    family: 'echo-server',
    userland: 'scratch',
    config: { entrypoint: ['/bin/echo-server'], exposedPorts: [8080] },
    tags: { '1.0': { size: 2_404_311 }, latest: { size: 2_404_311, alias: '1.0' } },
  },
  {
    repository: 'docker.io/paulbouwer/hello-kubernetes',
    family: 'hello-kubernetes',
    userland: 'busybox',
    binaries: ['node', 'dumb-init'],
    config: { entrypoint: ['dumb-init', '--'], cmd: ['node', 'server.js'], user: '1000', workingDir: '/usr/src/app', exposedPorts: [8080] },
    tags: { '1.8': { size: 27_030_221 }, '1.10': { size: 45_208_116 }, '1.10.1': { size: 45_210_870 } },
  },
  {
    repository: 'docker.io/nicolaka/netshoot',
    family: 'netshoot',
    userland: 'busybox',
    binaries: ['curl', 'bash', 'zsh', 'dig', 'nslookup', 'host', 'tcpdump', 'iperf3', 'nmap', 'netcat', 'nc', 'socat', 'ip', 'ss', 'iptables', 'jq', 'mtr', 'traceroute', 'drill', 'ethtool', 'tshark', 'grpcurl', 'httpie'],
    config: { cmd: ['zsh'] },
    tags: { 'v0.13': { size: 196_330_871 }, 'v0.14': { size: 199_002_416 }, latest: { size: 199_002_416, alias: 'v0.14' } },
  },
  // ---- the kubernetes.io tutorials' images ---------------------------------------------
  // "Example: Deploying PHP Guestbook application with Redis" (application/guestbook/*.yaml):
  // the frontend and follower images moved between registries over the years; each path the
  // page has named serves the same image (the follower's /run.sh starts a replica of
  // redis-leader).
  ...['gcr.io/google_samples/gb-frontend', 'us-docker.pkg.dev/google-samples/containers/gke/gb-frontend', 'docker.io/corelab/gb-frontend'].map(
    (repository): RepositoryInfo => ({
      repository,
      family: 'guestbook-frontend',
      userland: 'debian',
      binaries: ['apache2-foreground', 'php'],
      config: { cmd: ['apache2-foreground'], exposedPorts: [80] },
      tags: { v4: { size: 128_017_315 }, v5: { size: 130_340_201 } },
    }),
  ),
  ...['gcr.io/google_samples/gb-redis-follower', 'us-docker.pkg.dev/google-samples/containers/gke/gb-redis-follower'].map(
    (repository): RepositoryInfo => ({
      repository,
      family: 'redis',
      userland: 'debian',
      binaries: ['redis-server', 'redis-cli'],
      config: { cmd: ['/run.sh'], exposedPorts: [6379] },
      tags: { v2: { size: 39_412_108, version: '6.0.5' } },
    }),
  ),
  {
    // The HorizontalPodAutoscaler walkthrough's php-apache (application/php-apache.yaml):
    // `FROM php:5-apache` with an index.php that burns CPU and prints `OK!`.
    repository: 'registry.k8s.io/hpa-example',
    family: 'hpa-example',
    userland: 'debian',
    binaries: ['apache2-foreground', 'php', 'curl'],
    config: { cmd: ['apache2-foreground'], exposedPorts: [80] },
    tags: { latest: { size: 171_437_202 } },
  },
];
