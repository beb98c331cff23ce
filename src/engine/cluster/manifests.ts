/**
 * What kubeadm and kind write or send when they build a cluster, as text:
 *
 * - the four static pod manifests `kubeadm init` writes to /etc/kubernetes/manifests on the
 *   control-plane node (kubeadm's phases `etcd local` and `control-plane`: cmd/kubeadm/app/phases/
 *   controlplane/manifests.go, etcd/local.go, util/staticpod/utils.go), with kind's settings
 *   (pod subnet, service subnet, the node IP as advertise address);
 * - the kubeadm objects created through the API after the control plane is up (`upload-config`:
 *   kubeadm-config and kubelet-config; `bootstrap-token`: the token Secret, cluster-info in
 *   kube-public and the RBAC bindings; `addon`: CoreDNS and kube-proxy, from
 *   cmd/kubeadm/app/phases/addons/dns/manifests.go and proxy/manifests.go);
 * - kind's two manifests in the node image: /kind/manifests/default-cni.yaml (kindnet, with the
 *   `would you kindly template/patch this file` markers kind's installcni action looks for) and
 *   /kind/manifests/default-storage.yaml (local-path-provisioner and the `standard` class), from
 *   sigs.k8s.io/kind pkg/build/nodeimage/const_cni.go and const_storage.go.
 *
 * Image tags come from `kindNodeImages(version)` so the manifests name exactly the images the
 * node image preloads. Units: probe fields in seconds, as the API has them.
 */
import { kindNodeImages } from '../node/registry';
import { kindDefaultStorageClass } from '../controllers/persistentvolume';
import { toYaml } from '../api/yaml';
import { base64, fakePem, kindKubeletConfig } from '../node/fs';

/** The images of a kindest/node release, by role. */
export interface KindImages {
  apiserver: string;
  controllerManager: string;
  scheduler: string;
  proxy: string;
  etcd: string;
  coredns: string;
  pause: string;
  kindnetd: string;
  localPathProvisioner: string;
  localPathHelper: string;
}

/** The images `kindNodeImages(version)` lists, by role. Errors: RangeError for an unsupported version. */
export function kindImages(version: string): KindImages {
  const all = kindNodeImages(version);
  const find = (repo: string): string => {
    const r = all.find((i) => i.startsWith(`${repo}:`));
    if (!r) throw new RangeError(`no ${repo} image for ${version}`);
    return r;
  };
  return {
    apiserver: find('registry.k8s.io/kube-apiserver'),
    controllerManager: find('registry.k8s.io/kube-controller-manager'),
    scheduler: find('registry.k8s.io/kube-scheduler'),
    proxy: find('registry.k8s.io/kube-proxy'),
    etcd: find('registry.k8s.io/etcd'),
    coredns: find('registry.k8s.io/coredns/coredns'),
    pause: find('registry.k8s.io/pause'),
    kindnetd: find('docker.io/kindest/kindnetd'),
    localPathProvisioner: find('docker.io/kindest/local-path-provisioner'),
    localPathHelper: find('docker.io/kindest/local-path-helper'),
  };
}

/** What the manifests depend on. */
export interface ManifestParams {
  clusterName: string;
  /** The control-plane node (`k8s-lab-control-plane`). */
  nodeName: string;
  /** Its address on the kind network (`172.18.0.2`). */
  nodeIP: string;
  /** Kubernetes version (`v1.35.0`). */
  version: string;
  podSubnet: string;
  serviceSubnet: string;
}

/** The cluster DNS Service IP: the 10th address of the service subnet (kubeadm `GetDNSIP`). */
export function dnsServiceIP(serviceSubnet: string): string {
  const [ip] = serviceSubnet.split('/');
  const o = ip.split('.').map(Number);
  return `${o[0]}.${o[1]}.${o[2]}.${o[3] + 10}`;
}

/** The kubernetes Service IP: the first address of the service subnet. */
export function apiServiceIP(serviceSubnet: string): string {
  const [ip] = serviceSubnet.split('/');
  const o = ip.split('.').map(Number);
  return `${o[0]}.${o[1]}.${o[2]}.${o[3] + 1}`;
}

const hostPath = (name: string, path: string, type: string) => `  - hostPath:\n      path: ${path}\n      type: ${type}\n    name: ${name}\n`;
const mount = (name: string, path: string, readOnly = true) => `    - mountPath: ${path}\n      name: ${name}\n${readOnly ? '      readOnly: true\n' : ''}`;

/** A kubeadm HTTP(S) probe block (util/staticpod/utils.go `LivenessProbe`/`ReadinessProbe`/`StartupProbe`). */
function probe(kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe', host: string, path: string, port: number | string, scheme: 'HTTP' | 'HTTPS'): string {
  const failure = kind === 'livenessProbe' ? 8 : kind === 'readinessProbe' ? 3 : 24;
  const initial = kind === 'readinessProbe' ? '' : '      initialDelaySeconds: 10\n';
  const period = kind === 'readinessProbe' ? 1 : 10;
  return (
    `    ${kind}:\n      failureThreshold: ${failure}\n      httpGet:\n        host: ${host}\n        path: ${path}\n        port: ${port}\n        scheme: ${scheme}\n` +
    `${initial}      periodSeconds: ${period}\n      timeoutSeconds: 15\n`
  );
}

const CA_VOLUMES = {
  mounts: mount('ca-certs', '/etc/ssl/certs') + mount('etc-ca-certificates', '/etc/ca-certificates'),
  volumes: hostPath('ca-certs', '/etc/ssl/certs', 'DirectoryOrCreate') + hostPath('etc-ca-certificates', '/etc/ca-certificates', 'DirectoryOrCreate'),
  usrMounts: mount('usr-local-share-ca-certificates', '/usr/local/share/ca-certificates') + mount('usr-share-ca-certificates', '/usr/share/ca-certificates'),
  usrVolumes:
    hostPath('usr-local-share-ca-certificates', '/usr/local/share/ca-certificates', 'DirectoryOrCreate') +
    hostPath('usr-share-ca-certificates', '/usr/share/ca-certificates', 'DirectoryOrCreate'),
};

const POD_TAIL = '  hostNetwork: true\n  priority: 2000001000\n  priorityClassName: system-node-critical\n  securityContext:\n    seccompProfile:\n      type: RuntimeDefault\n';

/**
 * The static pod manifests `kubeadm init` writes on a kind control-plane node, by file name:
 * etcd.yaml, kube-apiserver.yaml, kube-controller-manager.yaml, kube-scheduler.yaml. Labels
 * `component=<name>`, `tier=control-plane`; hostNetwork; priorityClassName
 * system-node-critical; liveness, readiness and startup probes on the components' real ports.
 */
export function staticPodManifests(p: ManifestParams): Record<string, string> {
  const img = kindImages(p.version);
  const ip = p.nodeIP;
  const etcd =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n' +
    `    kubeadm.kubernetes.io/etcd.advertise-client-urls: https://${ip}:2379\n` +
    '  labels:\n    component: etcd\n    tier: control-plane\n  name: etcd\n  namespace: kube-system\nspec:\n  containers:\n  - command:\n    - etcd\n' +
    [
      `--advertise-client-urls=https://${ip}:2379`,
      '--cert-file=/etc/kubernetes/pki/etcd/server.crt',
      '--client-cert-auth=true',
      '--data-dir=/var/lib/etcd',
      '--feature-gates=InitialCorruptCheck=true',
      `--initial-advertise-peer-urls=https://${ip}:2380`,
      `--initial-cluster=${p.nodeName}=https://${ip}:2380`,
      '--key-file=/etc/kubernetes/pki/etcd/server.key',
      `--listen-client-urls=https://127.0.0.1:2379,https://${ip}:2379`,
      '--listen-metrics-urls=http://127.0.0.1:2381',
      `--listen-peer-urls=https://${ip}:2380`,
      `--name=${p.nodeName}`,
      '--peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt',
      '--peer-client-cert-auth=true',
      '--peer-key-file=/etc/kubernetes/pki/etcd/peer.key',
      '--peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
      '--snapshot-count=10000',
      '--trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
      '--watch-progress-notify-interval=5s',
    ]
      .map((f) => `    - ${f}\n`)
      .join('') +
    `    image: ${img.etcd}\n    imagePullPolicy: IfNotPresent\n` +
    probe('livenessProbe', '127.0.0.1', '/livez', 2381, 'HTTP') +
    '    name: etcd\n' +
    probe('readinessProbe', '127.0.0.1', '/readyz', 2381, 'HTTP') +
    '    resources:\n      requests:\n        cpu: 100m\n        memory: 100Mi\n' +
    probe('startupProbe', '127.0.0.1', '/readyz', 2381, 'HTTP') +
    '    volumeMounts:\n' +
    mount('etcd-data', '/var/lib/etcd', false) +
    mount('etcd-certs', '/etc/kubernetes/pki/etcd', false) +
    POD_TAIL +
    '  volumes:\n' +
    hostPath('etcd-certs', '/etc/kubernetes/pki/etcd', 'DirectoryOrCreate') +
    hostPath('etcd-data', '/var/lib/etcd', 'DirectoryOrCreate') +
    'status: {}\n';

  const apiserver =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n' +
    `    kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint: ${ip}:6443\n` +
    '  labels:\n    component: kube-apiserver\n    tier: control-plane\n  name: kube-apiserver\n  namespace: kube-system\nspec:\n  containers:\n  - command:\n    - kube-apiserver\n' +
    [
      `--advertise-address=${ip}`,
      '--allow-privileged=true',
      '--authorization-mode=Node,RBAC',
      '--client-ca-file=/etc/kubernetes/pki/ca.crt',
      '--enable-admission-plugins=NodeRestriction',
      '--enable-bootstrap-token-auth=true',
      '--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt',
      '--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt',
      '--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key',
      '--etcd-servers=https://127.0.0.1:2379',
      '--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt',
      '--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key',
      '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
      '--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt',
      '--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key',
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-username-headers=X-Remote-User',
      '--runtime-config=',
      '--secure-port=6443',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      '--service-account-key-file=/etc/kubernetes/pki/sa.pub',
      '--service-account-signing-key-file=/etc/kubernetes/pki/sa.key',
      `--service-cluster-ip-range=${p.serviceSubnet}`,
      '--tls-cert-file=/etc/kubernetes/pki/apiserver.crt',
      '--tls-private-key-file=/etc/kubernetes/pki/apiserver.key',
    ]
      .map((f) => `    - ${f}\n`)
      .join('') +
    `    image: ${img.apiserver}\n    imagePullPolicy: IfNotPresent\n` +
    probe('livenessProbe', ip, '/livez', 'probe-port', 'HTTPS') +
    '    name: kube-apiserver\n    ports:\n    - containerPort: 6443\n      name: probe-port\n      protocol: TCP\n' +
    probe('readinessProbe', ip, '/readyz', 'probe-port', 'HTTPS') +
    '    resources:\n      requests:\n        cpu: 250m\n' +
    probe('startupProbe', ip, '/livez', 'probe-port', 'HTTPS') +
    '    volumeMounts:\n' +
    CA_VOLUMES.mounts +
    mount('k8s-certs', '/etc/kubernetes/pki') +
    CA_VOLUMES.usrMounts +
    POD_TAIL +
    '  volumes:\n' +
    CA_VOLUMES.volumes +
    hostPath('k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate') +
    CA_VOLUMES.usrVolumes +
    'status: {}\n';

  const kcm =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    component: kube-controller-manager\n    tier: control-plane\n  name: kube-controller-manager\n  namespace: kube-system\nspec:\n  containers:\n  - command:\n    - kube-controller-manager\n' +
    [
      '--allocate-node-cidrs=true',
      '--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf',
      '--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf',
      '--bind-address=127.0.0.1',
      '--client-ca-file=/etc/kubernetes/pki/ca.crt',
      `--cluster-cidr=${p.podSubnet}`,
      `--cluster-name=${p.clusterName}`,
      '--cluster-signing-cert-file=/etc/kubernetes/pki/ca.crt',
      '--cluster-signing-key-file=/etc/kubernetes/pki/ca.key',
      '--controllers=*,bootstrapsigner,tokencleaner',
      '--enable-hostpath-provisioner=true',
      '--kubeconfig=/etc/kubernetes/controller-manager.conf',
      '--leader-elect=true',
      '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
      '--root-ca-file=/etc/kubernetes/pki/ca.crt',
      '--service-account-private-key-file=/etc/kubernetes/pki/sa.key',
      `--service-cluster-ip-range=${p.serviceSubnet}`,
      '--use-service-account-credentials=true',
    ]
      .map((f) => `    - ${f}\n`)
      .join('') +
    `    image: ${img.controllerManager}\n    imagePullPolicy: IfNotPresent\n` +
    probe('livenessProbe', '127.0.0.1', '/healthz', 10257, 'HTTPS') +
    '    name: kube-controller-manager\n    resources:\n      requests:\n        cpu: 200m\n' +
    probe('startupProbe', '127.0.0.1', '/healthz', 10257, 'HTTPS') +
    '    volumeMounts:\n' +
    CA_VOLUMES.mounts +
    mount('flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', false) +
    mount('k8s-certs', '/etc/kubernetes/pki') +
    mount('kubeconfig', '/etc/kubernetes/controller-manager.conf') +
    CA_VOLUMES.usrMounts +
    POD_TAIL +
    '  volumes:\n' +
    CA_VOLUMES.volumes +
    hostPath('flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', 'DirectoryOrCreate') +
    hostPath('k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate') +
    hostPath('kubeconfig', '/etc/kubernetes/controller-manager.conf', 'FileOrCreate') +
    CA_VOLUMES.usrVolumes +
    'status: {}\n';

  const scheduler =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    component: kube-scheduler\n    tier: control-plane\n  name: kube-scheduler\n  namespace: kube-system\nspec:\n  containers:\n  - command:\n    - kube-scheduler\n' +
    [
      '--authentication-kubeconfig=/etc/kubernetes/scheduler.conf',
      '--authorization-kubeconfig=/etc/kubernetes/scheduler.conf',
      '--bind-address=127.0.0.1',
      '--kubeconfig=/etc/kubernetes/scheduler.conf',
      '--leader-elect=true',
    ]
      .map((f) => `    - ${f}\n`)
      .join('') +
    `    image: ${img.scheduler}\n    imagePullPolicy: IfNotPresent\n` +
    probe('livenessProbe', '127.0.0.1', '/livez', 10259, 'HTTPS') +
    '    name: kube-scheduler\n' +
    probe('readinessProbe', '127.0.0.1', '/readyz', 10259, 'HTTPS') +
    '    resources:\n      requests:\n        cpu: 100m\n' +
    probe('startupProbe', '127.0.0.1', '/livez', 10259, 'HTTPS') +
    '    volumeMounts:\n' +
    mount('kubeconfig', '/etc/kubernetes/scheduler.conf') +
    POD_TAIL +
    '  volumes:\n' +
    hostPath('kubeconfig', '/etc/kubernetes/scheduler.conf', 'FileOrCreate') +
    'status: {}\n';

  return {
    'etcd.yaml': etcd,
    'kube-apiserver.yaml': apiserver,
    'kube-controller-manager.yaml': kcm,
    'kube-scheduler.yaml': scheduler,
  };
}

/**
 * kubeadm's ClusterConfiguration as `upload-config` stores it in ConfigMap
 * kube-system/kubeadm-config (kubeadm.k8s.io/v1beta4), with kind's settings.
 */
export function clusterConfiguration(p: ManifestParams): string {
  return `apiServer:
  certSANs:
  - localhost
  - 127.0.0.1
  extraArgs:
  - name: runtime-config
    value: ""
apiVersion: kubeadm.k8s.io/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: ${p.clusterName}
controlPlaneEndpoint: ${p.clusterName}-control-plane:6443
controllerManager:
  extraArgs:
  - name: enable-hostpath-provisioner
    value: "true"
dns: {}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: ${p.version}
networking:
  dnsDomain: cluster.local
  podSubnet: ${p.podSubnet}
  serviceSubnet: ${p.serviceSubnet}
proxy: {}
scheduler: {}
`;
}

/** The kubeconfig in kube-public/cluster-info (no user: it only carries the CA and the endpoint). */
function clusterInfoKubeconfig(p: ManifestParams): string {
  const ca = fakePem('CERTIFICATE', `${p.clusterName}-ca`);
  return `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${base64(ca)}
    server: https://${p.clusterName}-control-plane:6443
  name: ""
contexts: null
current-context: ""
kind: Config
preferences: {}
users: null
`;
}

/**
 * The objects kubeadm init creates through the API once kube-apiserver answers, in its phase
 * order: `upload-config` (kubeadm-config, kubelet-config with their Roles and RoleBindings),
 * `bootstrap-token` (the token Secret `bootstrap-token-abcdef`, kind's fixed token
 * `abcdef.0123456789abcdef`, cluster-info and the bootstrap RBAC). YAML, multi-document.
 */
export function kubeadmInitObjects(p: ManifestParams): string {
  const cm = (name: string, ns: string, key: string, value: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\ndata:\n  ${key}: |\n${value
      .trimEnd()
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}\n`;
  const crb = (name: string, role: string, subjects: string) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: ${name}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: ${role}\nsubjects:\n${subjects}`;
  const group = (g: string) => `- apiGroup: rbac.authorization.k8s.io\n  kind: Group\n  name: ${g}\n`;
  const role = (name: string, ns: string, rules: string) => `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nrules:\n${rules}`;
  const rb = (name: string, ns: string, roleName: string, subjects: string) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: ${roleName}\nsubjects:\n${subjects}`;
  const token = {
    'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
    description: "The default bootstrap token generated by 'kubeadm init'.",
    'token-id': 'abcdef',
    'token-secret': '0123456789abcdef',
    'usage-bootstrap-authentication': 'true',
    'usage-bootstrap-signing': 'true',
  };
  const docs = [
    cm('kubeadm-config', 'kube-system', 'ClusterConfiguration', clusterConfiguration(p)),
    role('kubeadm:nodes-kubeadm-config', 'kube-system', '- apiGroups:\n  - ""\n  resourceNames:\n  - kubeadm-config\n  resources:\n  - configmaps\n  verbs:\n  - get\n'),
    rb('kubeadm:nodes-kubeadm-config', 'kube-system', 'kubeadm:nodes-kubeadm-config', group('system:bootstrappers:kubeadm:default-node-token') + group('system:nodes')),
    cm('kubelet-config', 'kube-system', 'kubelet', kindKubeletConfig()),
    role('kubeadm:kubelet-config', 'kube-system', '- apiGroups:\n  - ""\n  resourceNames:\n  - kubelet-config\n  resources:\n  - configmaps\n  verbs:\n  - get\n'),
    rb('kubeadm:kubelet-config', 'kube-system', 'kubeadm:kubelet-config', group('system:nodes') + group('system:bootstrappers:kubeadm:default-node-token')),
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: bootstrap-token-abcdef\n  namespace: kube-system\ntype: bootstrap.kubernetes.io/token\ndata:\n${Object.entries(token)
      .map(([k, v]) => `  ${k}: ${base64(v)}\n`)
      .join('')}`,
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: kubeadm:get-nodes\nrules:\n- apiGroups:\n  - ""\n  resources:\n  - nodes\n  verbs:\n  - get\n',
    crb('kubeadm:get-nodes', 'kubeadm:get-nodes', group('system:bootstrappers:kubeadm:default-node-token')),
    crb('kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', group('system:bootstrappers:kubeadm:default-node-token')),
    crb('kubeadm:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', group('system:bootstrappers:kubeadm:default-node-token')),
    crb('kubeadm:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', group('system:nodes')),
    cm('cluster-info', 'kube-public', 'kubeconfig', clusterInfoKubeconfig(p)),
    role('kubeadm:bootstrap-signer-clusterinfo', 'kube-public', '- apiGroups:\n  - ""\n  resourceNames:\n  - cluster-info\n  resources:\n  - configmaps\n  verbs:\n  - get\n'),
    rb('kubeadm:bootstrap-signer-clusterinfo', 'kube-public', 'kubeadm:bootstrap-signer-clusterinfo', '- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: system:anonymous\n'),
  ];
  return docs.join('---\n');
}

/**
 * kubeadm's `kubeadm:cluster-admins` ClusterRoleBinding (kubeadm >= 1.29,
 * cmd/kubeadm/app/phases/kubeconfig/kubeconfig.go `EnsureAdminClusterRoleBindingImpl`, name and
 * group `constants.ClusterAdminsGroupAndClusterRoleBinding`): binds the group that admin.conf's
 * client certificate carries to the `cluster-admin` ClusterRole. `kubeadm init` creates it
 * through super-admin.conf the first time it builds its client (`initData.Client()`), as soon as
 * the API server answers, before the upload-config phase's objects. The subject is written
 * without an apiGroup; the API server's rbac/v1 defaulting (`SetDefaults_Subject`) fills
 * `rbac.authorization.k8s.io`, as stored here. YAML, one document.
 */
export function kubeadmClusterAdminsBinding(): string {
  return 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: kubeadm:cluster-admins\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: cluster-admin\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: Group\n  name: kubeadm:cluster-admins\n';
}

/**
 * kubeadm's CoreDNS addon (phases/addons/dns/manifests.go): ServiceAccount, ClusterRole and
 * ClusterRoleBinding `system:coredns`, the `coredns` ConfigMap (Corefile), the `coredns`
 * Deployment (2 replicas, `k8s-app: kube-dns`, priorityClassName system-cluster-critical,
 * tolerations for CriticalAddonsOnly and the control-plane taint, preferred anti-affinity by
 * hostname, /health on 8080 and /ready on 8181) and the `kube-dns` Service at the 10th address
 * of the service subnet.
 */
export function corednsAddon(p: ManifestParams): string {
  const img = kindImages(p.version);
  return `apiVersion: v1
kind: ServiceAccount
metadata:
  name: coredns
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:coredns
rules:
- apiGroups:
  - ""
  resources:
  - endpoints
  - services
  - pods
  - namespaces
  verbs:
  - list
  - watch
- apiGroups:
  - discovery.k8s.io
  resources:
  - endpointslices
  verbs:
  - list
  - watch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: system:coredns
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:coredns
subjects:
- kind: ServiceAccount
  name: coredns
  namespace: kube-system
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: coredns
  namespace: kube-system
data:
  Corefile: |
    .:53 {
        errors
        health {
           lameduck 5s
        }
        ready
        kubernetes cluster.local in-addr.arpa ip6.arpa {
           pods insecure
           fallthrough in-addr.arpa ip6.arpa
           ttl 30
        }
        prometheus :9153
        forward . /etc/resolv.conf {
           max_concurrent 1000
        }
        cache 30 {
           disable success cluster.local
           disable denial cluster.local
        }
        loop
        reload
        loadbalance
    }
---
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    k8s-app: kube-dns
  name: coredns
  namespace: kube-system
spec:
  replicas: 2
  selector:
    matchLabels:
      k8s-app: kube-dns
  strategy:
    rollingUpdate:
      maxUnavailable: 1
    type: RollingUpdate
  template:
    metadata:
      labels:
        k8s-app: kube-dns
    spec:
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - podAffinityTerm:
              labelSelector:
                matchExpressions:
                - key: k8s-app
                  operator: In
                  values:
                  - kube-dns
              topologyKey: kubernetes.io/hostname
            weight: 100
      containers:
      - args:
        - -conf
        - /etc/coredns/Corefile
        image: ${img.coredns}
        imagePullPolicy: IfNotPresent
        livenessProbe:
          failureThreshold: 5
          httpGet:
            path: /health
            port: liveness-probe
            scheme: HTTP
          initialDelaySeconds: 60
          successThreshold: 1
          timeoutSeconds: 5
        name: coredns
        ports:
        - containerPort: 53
          name: dns
          protocol: UDP
        - containerPort: 53
          name: dns-tcp
          protocol: TCP
        - containerPort: 9153
          name: metrics
          protocol: TCP
        - containerPort: 8080
          name: liveness-probe
          protocol: TCP
        - containerPort: 8181
          name: readiness-probe
          protocol: TCP
        readinessProbe:
          httpGet:
            path: /ready
            port: readiness-probe
            scheme: HTTP
        resources:
          limits:
            memory: 170Mi
          requests:
            cpu: 100m
            memory: 70Mi
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            add:
            - NET_BIND_SERVICE
            drop:
            - ALL
          readOnlyRootFilesystem: true
        volumeMounts:
        - mountPath: /etc/coredns
          name: config-volume
          readOnly: true
      dnsPolicy: Default
      nodeSelector:
        kubernetes.io/os: linux
      priorityClassName: system-cluster-critical
      serviceAccountName: coredns
      tolerations:
      - key: CriticalAddonsOnly
        operator: Exists
      - effect: NoSchedule
        key: node-role.kubernetes.io/control-plane
      volumes:
      - configMap:
          items:
          - key: Corefile
            path: Corefile
          name: coredns
        name: config-volume
---
apiVersion: v1
kind: Service
metadata:
  annotations:
    prometheus.io/port: "9153"
    prometheus.io/scrape: "true"
  labels:
    k8s-app: kube-dns
    kubernetes.io/cluster-service: "true"
    kubernetes.io/name: CoreDNS
  name: kube-dns
  namespace: kube-system
spec:
  clusterIP: ${dnsServiceIP(p.serviceSubnet)}
  ports:
  - name: dns
    port: 53
    protocol: UDP
    targetPort: 53
  - name: dns-tcp
    port: 53
    protocol: TCP
    targetPort: 53
  - name: metrics
    port: 9153
    protocol: TCP
    targetPort: 9153
  selector:
    k8s-app: kube-dns
`;
}

/**
 * kubeadm's kube-proxy addon (phases/addons/proxy/manifests.go): ServiceAccount, the
 * `kubeadm:node-proxier` binding, the `kube-proxy` ConfigMap (KubeProxyConfiguration with kind's
 * settings: iptables mode, the pod subnet as clusterCIDR, conntrack maxPerCore 0) and the
 * `kube-proxy` DaemonSet (hostNetwork, privileged, tolerates everything, system-node-critical).
 */
export function kubeProxyAddon(p: ManifestParams): string {
  const img = kindImages(p.version);
  return `apiVersion: v1
kind: ServiceAccount
metadata:
  name: kube-proxy
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: kubeadm:node-proxier
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:node-proxier
subjects:
- kind: ServiceAccount
  name: kube-proxy
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: kube-proxy
  namespace: kube-system
rules:
- apiGroups:
  - ""
  resourceNames:
  - kube-proxy
  resources:
  - configmaps
  verbs:
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: kube-proxy
  namespace: kube-system
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: kube-proxy
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: Group
  name: system:bootstrappers:kubeadm:default-node-token
---
apiVersion: v1
kind: ConfigMap
metadata:
  labels:
    app: kube-proxy
  name: kube-proxy
  namespace: kube-system
data:
  config.conf: |-
    apiVersion: kubeproxy.config.k8s.io/v1alpha1
    bindAddress: 0.0.0.0
    bindAddressHardFail: false
    clientConnection:
      acceptContentTypes: ""
      burst: 0
      contentType: ""
      kubeconfig: /var/lib/kube-proxy/kubeconfig.conf
      qps: 0
    clusterCIDR: ${p.podSubnet}
    configSyncPeriod: 0s
    conntrack:
      maxPerCore: 0
      min: null
      tcpBeLiberal: false
      tcpCloseWaitTimeout: null
      tcpEstablishedTimeout: null
      udpStreamTimeout: 0s
      udpTimeout: 0s
    detectLocal:
      bridgeInterface: ""
      interfaceNamePrefix: ""
    detectLocalMode: ""
    enableProfiling: false
    healthzBindAddress: ""
    hostnameOverride: ""
    iptables:
      localhostNodePorts: null
      masqueradeAll: false
      masqueradeBit: null
      minSyncPeriod: 1s
      syncPeriod: 0s
    ipvs:
      excludeCIDRs: null
      minSyncPeriod: 0s
      scheduler: ""
      strictARP: false
      syncPeriod: 0s
      tcpFinTimeout: 0s
      tcpTimeout: 0s
      udpTimeout: 0s
    kind: KubeProxyConfiguration
    logging:
      flushFrequency: 0
      options:
        json:
          infoBufferSize: "0"
        text:
          infoBufferSize: "0"
      verbosity: 0
    metricsBindAddress: ""
    mode: iptables
    nftables:
      masqueradeAll: false
      masqueradeBit: null
      minSyncPeriod: 0s
      syncPeriod: 0s
    nodePortAddresses: null
    oomScoreAdj: null
    portRange: ""
    showHiddenMetricsForVersion: ""
    winkernel:
      enableDSR: false
      forwardHealthCheckVip: false
      networkName: ""
      rootHnsEndpointName: ""
      sourceVip: ""
  kubeconfig.conf: |-
    apiVersion: v1
    kind: Config
    clusters:
    - cluster:
        certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
        server: https://${p.clusterName}-control-plane:6443
      name: default
    contexts:
    - context:
        cluster: default
        namespace: default
        user: default
      name: default
    current-context: default
    users:
    - name: default
      user:
        tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  labels:
    k8s-app: kube-proxy
  name: kube-proxy
  namespace: kube-system
spec:
  selector:
    matchLabels:
      k8s-app: kube-proxy
  template:
    metadata:
      labels:
        k8s-app: kube-proxy
    spec:
      containers:
      - command:
        - /usr/local/bin/kube-proxy
        - --config=/var/lib/kube-proxy/config.conf
        - --hostname-override=$(NODE_NAME)
        env:
        - name: NODE_NAME
          valueFrom:
            fieldRef:
              fieldPath: spec.nodeName
        image: ${img.proxy}
        imagePullPolicy: IfNotPresent
        name: kube-proxy
        securityContext:
          privileged: true
        volumeMounts:
        - mountPath: /var/lib/kube-proxy
          name: kube-proxy
        - mountPath: /run/xtables.lock
          name: xtables-lock
        - mountPath: /lib/modules
          name: lib-modules
          readOnly: true
      hostNetwork: true
      nodeSelector:
        kubernetes.io/os: linux
      priorityClassName: system-node-critical
      serviceAccountName: kube-proxy
      tolerations:
      - operator: Exists
      volumes:
      - configMap:
          name: kube-proxy
        name: kube-proxy
      - hostPath:
          path: /run/xtables.lock
          type: FileOrCreate
        name: xtables-lock
      - hostPath:
          path: /lib/modules
        name: lib-modules
  updateStrategy:
    type: RollingUpdate
`;
}

/**
 * /kind/manifests/default-cni.yaml as the node image ships it: kindnet, still a template
 * (`{{ .PodSubnet }}`) with the markers that make kind's installcni action render it and add the
 * CONTROL_PLANE_ENDPOINT variable.
 */
export function kindCniManifest(version: string): string {
  const img = kindImages(version);
  return `# kindnetd networking manifest
# would you kindly template this file
# would you kindly patch this file
---
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: kindnet
rules:
  - apiGroups:
      - ""
    resources:
      - nodes
    verbs:
      - list
      - watch
      - patch
  - apiGroups:
     - ""
    resources:
      - configmaps
    verbs:
      - get
  - apiGroups:
      - ""
    resources:
      - namespaces
      - pods
    verbs:
      - list
      - watch
  - apiGroups:
     - "networking.k8s.io"
    resources:
      - networkpolicies
    verbs:
      - list
      - watch
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: kindnet
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: kindnet
subjects:
- kind: ServiceAccount
  name: kindnet
  namespace: kube-system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: kindnet
  namespace: kube-system
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kindnet
  namespace: kube-system
  labels:
    tier: node
    app: kindnet
    k8s-app: kindnet
spec:
  selector:
    matchLabels:
      app: kindnet
  template:
    metadata:
      labels:
        tier: node
        app: kindnet
        k8s-app: kindnet
    spec:
      hostNetwork: true
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
      - operator: Exists
      serviceAccountName: kindnet
      containers:
      - name: kindnet-cni
        image: ${img.kindnetd}
        env:
        - name: HOST_IP
          valueFrom:
            fieldRef:
              fieldPath: status.hostIP
        - name: POD_IP
          valueFrom:
            fieldRef:
              fieldPath: status.podIP
        - name: POD_SUBNET
          value: {{ .PodSubnet }}
        volumeMounts:
        - name: cni-cfg
          mountPath: /etc/cni/net.d
        - name: xtables-lock
          mountPath: /run/xtables.lock
          readOnly: false
        - name: lib-modules
          mountPath: /lib/modules
          readOnly: true
        resources:
          requests:
            cpu: "100m"
            memory: "50Mi"
          limits:
            cpu: "100m"
            memory: "50Mi"
        securityContext:
          privileged: false
          capabilities:
            add: ["NET_RAW", "NET_ADMIN"]
      volumes:
      - name: cni-cfg
        hostPath:
          path: /etc/cni/net.d
          type: DirectoryOrCreate
      - name: xtables-lock
        hostPath:
          path: /run/xtables.lock
          type: FileOrCreate
      - name: lib-modules
        hostPath:
          path: /lib/modules
---
`;
}

/**
 * /kind/manifests/default-storage.yaml: the local-path-storage namespace, RBAC, the
 * `local-path-provisioner` Deployment, its `local-path-config` ConfigMap, and the `standard`
 * StorageClass (`kindDefaultStorageClass()`, the default class).
 */
export function kindStorageManifest(version: string): string {
  const img = kindImages(version);
  const sc = toYaml(kindDefaultStorageClass());
  return `apiVersion: v1
kind: Namespace
metadata:
  name: local-path-storage

---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: local-path-provisioner-service-account
  namespace: local-path-storage

---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: local-path-provisioner-role
rules:
  - apiGroups: [ "" ]
    resources: [ "nodes", "persistentvolumeclaims", "configmaps" ]
    verbs: [ "get", "list", "watch" ]
  - apiGroups: [ "" ]
    resources: [ "endpoints", "persistentvolumes", "pods" ]
    verbs: [ "*" ]
  - apiGroups: [ "" ]
    resources: [ "events" ]
    verbs: [ "create", "patch" ]
  - apiGroups: [ "storage.k8s.io" ]
    resources: [ "storageclasses" ]
    verbs: [ "get", "list", "watch" ]

---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: local-path-provisioner-bind
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: local-path-provisioner-role
subjects:
  - kind: ServiceAccount
    name: local-path-provisioner-service-account
    namespace: local-path-storage

---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: local-path-provisioner
  namespace: local-path-storage
spec:
  replicas: 1
  selector:
    matchLabels:
      app: local-path-provisioner
  template:
    metadata:
      labels:
        app: local-path-provisioner
    spec:
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Equal
        effect: NoSchedule
      - key: node-role.kubernetes.io/master
        operator: Equal
        effect: NoSchedule
      serviceAccountName: local-path-provisioner-service-account
      containers:
        - name: local-path-provisioner
          image: ${img.localPathProvisioner}
          imagePullPolicy: IfNotPresent
          command:
            - local-path-provisioner
            - --debug
            - start
            - --helper-image
            - ${img.localPathHelper}
            - --config
            - /etc/config/config.json
          volumeMounts:
            - name: config-volume
              mountPath: /etc/config/
          env:
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
      volumes:
        - name: config-volume
          configMap:
            name: local-path-config

---
${sc}
---
kind: ConfigMap
apiVersion: v1
metadata:
  name: local-path-config
  namespace: local-path-storage
data:
  config.json: |-
    {
            "nodePathMap":[
            {
                    "node":"DEFAULT_PATH_FOR_NON_LISTED_NODES",
                    "paths":["/var/local-path-provisioner"]
            }
            ]
    }
  setup: |-
    #!/bin/sh
    set -eu
    mkdir -m 0777 -p "$VOL_DIR"
  teardown: |-
    #!/bin/sh
    set -eu
    rm -rf "$VOL_DIR"
  helperPod.yaml: |-
    apiVersion: v1
    kind: Pod
    metadata:
      name: helper-pod
    spec:
      containers:
      - name: helper-pod
        image: ${img.localPathHelper}
        imagePullPolicy: IfNotPresent
`;
}

/** The CNI configuration kindnetd writes to /etc/cni/net.d/10-kindnet.conflist (kindnet cmd/kindnetd/cni.go template). */
export function kindnetConflist(podCIDR: string): string {
  return `
{
	"cniVersion": "0.4.0",
	"name": "kindnet",
	"plugins": [
	{
		"type": "ptp",
		"ipMasq": false,
		"ipam": {
			"type": "host-local",
			"dataDir": "/run/cni-ipam-state",
			"routes": [
				{ "dst": "0.0.0.0/0" }
			],
			"ranges": [
				[ { "subnet": "${podCIDR}" } ]
			]
		}
		,
		"mtu": 1500
	},
	{
		"type": "portmap",
		"capabilities": {
			"portMappings": true
		}
	}
	]
}
`;
}
