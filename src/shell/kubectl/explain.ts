/**
 * `kubectl explain TYPE[.field.path]` for the kinds a learner meets first, from a small table of
 * the API's field documentation (the OpenAPI descriptions of k8s.io/api, shortened to the fields
 * listed here).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/explain/explain.go and the plaintext template of
 * staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl (`GROUP:`, `KIND:`,
 * `VERSION:`, `FIELD: name <type>`, `DESCRIPTION:` wrapped at 80 columns and indented by four,
 * `FIELDS:` as `  name\t<type>` with `-required-`), and its errors (`the server doesn't have a
 * resource type "foo"` without the `error:` prefix; `field "x" does not exist`).
 */
import { CmdError, discover, fail, type Env } from './env';

/** One documented field (or kind). */
interface Doc {
  type: string;
  desc: string;
  required?: boolean;
  fields?: Record<string, Doc>;
}

const CONV = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';

const API_VERSION: Doc = {
  type: 'string',
  desc: `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${CONV}#resources`,
};
const KIND: Doc = {
  type: 'string',
  desc: `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${CONV}#types-kinds`,
};
const METADATA: Doc = { type: 'ObjectMeta', desc: `Standard object's metadata. More info: ${CONV}#metadata` };

const CONTAINER: Doc = {
  type: '[]Container',
  desc: 'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.',
  required: true,
  fields: {
    args: { type: '[]string', desc: "Arguments to the entrypoint. The container image's CMD is used if this is not provided." },
    command: { type: '[]string', desc: "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided." },
    env: { type: '[]EnvVar', desc: 'List of environment variables to set in the container. Cannot be updated.' },
    image: { type: 'string', desc: 'Container image name. More info: https://kubernetes.io/docs/concepts/containers/images' },
    imagePullPolicy: {
      type: 'string',
      desc: 'Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More info: https://kubernetes.io/docs/concepts/containers/images#updating-images',
    },
    livenessProbe: {
      type: 'Probe',
      desc: 'Periodic probe of container liveness. Container will be restarted if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes',
    },
    name: { type: 'string', desc: 'Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.', required: true },
    ports: { type: '[]ContainerPort', desc: 'List of ports to expose from the container. Not specifying a port here DOES NOT prevent that port from being exposed.' },
    readinessProbe: {
      type: 'Probe',
      desc: 'Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes',
    },
    resources: { type: 'ResourceRequirements', desc: 'Compute Resources required by this container. Cannot be updated. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/' },
    volumeMounts: { type: '[]VolumeMount', desc: "Pod volumes to mount into the container's filesystem. Cannot be updated." },
  },
};

const POD_SPEC_FIELDS: Record<string, Doc> = {
  affinity: { type: 'Affinity', desc: "If specified, the pod's scheduling constraints" },
  containers: CONTAINER,
  initContainers: { type: '[]Container', desc: 'List of initialization containers belonging to the pod. Init containers are executed in order prior to containers being started.' },
  nodeName: { type: 'string', desc: 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.' },
  nodeSelector: { type: 'map[string]string', desc: "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node." },
  restartPolicy: { type: 'string', desc: 'Restart policy for all containers within the pod. One of Always, OnFailure, Never. Default to Always.' },
  serviceAccountName: { type: 'string', desc: 'ServiceAccountName is the name of the ServiceAccount to use to run this pod.' },
  terminationGracePeriodSeconds: {
    type: 'integer',
    desc: 'Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). If this value is nil, the default grace period will be used instead. Defaults to 30 seconds.',
  },
  tolerations: { type: '[]Toleration', desc: "If specified, the pod's tolerations." },
  volumes: { type: '[]Volume', desc: 'List of volumes that can be mounted by containers belonging to the pod. More info: https://kubernetes.io/docs/concepts/storage/volumes' },
};

const TEMPLATE: Doc = {
  type: 'PodTemplateSpec',
  desc: 'Template describes the pods that will be created.',
  required: true,
  fields: { metadata: METADATA, spec: { type: 'PodSpec', desc: `Specification of the desired behavior of the pod. More info: ${CONV}#spec-and-status`, fields: POD_SPEC_FIELDS } },
};

const SELECTOR: Doc = { type: 'LabelSelector', desc: "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.", required: true };

function kindDoc(desc: string, fields: Record<string, Doc>): Doc {
  return { type: 'Object', desc, fields: { apiVersion: API_VERSION, kind: KIND, metadata: METADATA, ...fields } };
}

/** The documented kinds, by kind. */
const KINDS: Record<string, Doc> = {
  Pod: kindDoc('Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.', {
    spec: { type: 'PodSpec', desc: `Specification of the desired behavior of the pod. More info: ${CONV}#spec-and-status`, fields: POD_SPEC_FIELDS },
    status: { type: 'PodStatus', desc: `Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only. More info: ${CONV}#spec-and-status` },
  }),
  Deployment: kindDoc('Deployment enables declarative updates for Pods and ReplicaSets.', {
    spec: {
      type: 'DeploymentSpec',
      desc: 'Specification of the desired behavior of the Deployment.',
      fields: {
        minReadySeconds: { type: 'integer', desc: 'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)' },
        paused: { type: 'boolean', desc: 'Indicates that the deployment is paused.' },
        progressDeadlineSeconds: {
          type: 'integer',
          desc: 'The maximum time in seconds for a deployment to make progress before it is considered to be failed. The deployment controller will continue to process failed deployments and a condition with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Note that progress will not be estimated during the time a deployment is paused. Defaults to 600s.',
        },
        replicas: { type: 'integer', desc: 'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.' },
        revisionHistoryLimit: { type: 'integer', desc: 'The number of old ReplicaSets to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.' },
        selector: SELECTOR,
        strategy: { type: 'DeploymentStrategy', desc: 'The deployment strategy to use to replace existing pods with new ones.' },
        template: { ...TEMPLATE, desc: 'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".' },
      },
    },
    status: { type: 'DeploymentStatus', desc: 'Most recently observed status of the Deployment.' },
  }),
  ReplicaSet: kindDoc('ReplicaSet ensures that a specified number of pod replicas are running at any given time.', {
    spec: { type: 'ReplicaSetSpec', desc: `Spec defines the specification of the desired behavior of the ReplicaSet. More info: ${CONV}#spec-and-status` },
    status: { type: 'ReplicaSetStatus', desc: `Status is the most recently observed status of the ReplicaSet. This data may be out of date by some window of time. Populated by the system. Read-only. More info: ${CONV}#spec-and-status` },
  }),
  StatefulSet: kindDoc(
    'StatefulSet represents a set of pods with consistent identities. Identities are defined as:\n  - Network: A single stable DNS and hostname.\n  - Storage: As many VolumeClaims as requested.\n\nThe StatefulSet guarantees that a given network identity will always map to the same storage identity.',
    {
      spec: { type: 'StatefulSetSpec', desc: 'Spec defines the desired identities of pods in this set.' },
      status: { type: 'StatefulSetStatus', desc: 'Status is the current status of Pods in this StatefulSet. This data may be out of date by some window of time.' },
    },
  ),
  DaemonSet: kindDoc('DaemonSet represents the configuration of a daemon set.', {
    spec: { type: 'DaemonSetSpec', desc: `The desired behavior of this daemon set. More info: ${CONV}#spec-and-status` },
    status: { type: 'DaemonSetStatus', desc: `The current status of this daemon set. This data may be out of date by some window of time. Populated by the system. Read-only. More info: ${CONV}#spec-and-status` },
  }),
  Job: kindDoc('Job represents the configuration of a single job.', {
    spec: { type: 'JobSpec', desc: `Specification of the desired behavior of a job. More info: ${CONV}#spec-and-status` },
    status: { type: 'JobStatus', desc: `Current status of a job. More info: ${CONV}#spec-and-status` },
  }),
  CronJob: kindDoc('CronJob represents the configuration of a single cron job.', {
    spec: { type: 'CronJobSpec', desc: `Specification of the desired behavior of a cron job, including the schedule. More info: ${CONV}#spec-and-status` },
    status: { type: 'CronJobStatus', desc: `Current status of a cron job. More info: ${CONV}#spec-and-status` },
  }),
  Service: kindDoc(
    'Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.',
    {
      spec: {
        type: 'ServiceSpec',
        desc: `Spec defines the behavior of a service. ${CONV}#spec-and-status`,
        fields: {
          clusterIP: { type: 'string', desc: 'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail.' },
          ports: { type: '[]ServicePort', desc: 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies' },
          selector: { type: 'map[string]string', desc: 'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify.' },
          type: { type: 'string', desc: 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.' },
        },
      },
      status: { type: 'ServiceStatus', desc: `Most recently observed status of the service. Populated by the system. Read-only. More info: ${CONV}#spec-and-status` },
    },
  ),
  Namespace: kindDoc('Namespace provides a scope for Names. Use of multiple namespaces is optional.', {
    spec: { type: 'NamespaceSpec', desc: `Spec defines the behavior of the Namespace. More info: ${CONV}#spec-and-status` },
    status: { type: 'NamespaceStatus', desc: `Status describes the current status of a Namespace. More info: ${CONV}#spec-and-status` },
  }),
  Node: kindDoc('Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).', {
    spec: { type: 'NodeSpec', desc: `Spec defines the behavior of a node. ${CONV}#spec-and-status` },
    status: { type: 'NodeStatus', desc: `Most recently observed status of the node. Populated by the system. Read-only. More info: ${CONV}#spec-and-status` },
  }),
  ConfigMap: kindDoc('ConfigMap holds configuration data for pods to consume.', {
    binaryData: { type: 'map[string]string', desc: "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range." },
    data: { type: 'map[string]string', desc: "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field." },
    immutable: { type: 'boolean', desc: 'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.' },
  }),
  Secret: kindDoc('Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.', {
    data: { type: 'map[string]string', desc: "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here." },
    immutable: { type: 'boolean', desc: 'Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.' },
    stringData: { type: 'map[string]string', desc: 'stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values.' },
    type: { type: 'string', desc: 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types' },
  }),
};

/** Word-wrap text at 76 columns and indent it by four spaces (the template's `wrap 76 | indent 4`). */
function wrapIndent(text: string, indent = '    ', width = 76): string {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    out.push(line);
  }
  return out.map((l) => (l === '' ? indent : indent + l)).join('\n');
}

function fieldsBlock(fields: Record<string, Doc>): string {
  let s = 'FIELDS:\n';
  for (const name of Object.keys(fields).sort()) {
    const f = fields[name];
    s += `  ${name}\t<${f.type}>${f.required ? ' -required-' : ''}\n${wrapIndent(f.desc)}\n\n`;
  }
  return s;
}

/** `kubectl explain`. */
export function explain(env: Env): number {
  const args = env.flags.args;
  if (args.length === 0) {
    // explain.go (v1.27+): one plain error line.
    throw new CmdError('error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.');
  }
  if (args.length > 1) throw fail(`We accept only this format: explain RESOURCE`);
  discover(env, 2);
  const [typed, ...path] = args[0].split('.');
  const t = env.api.registry.resolve(typed);
  if (!t) throw new CmdError(`the server doesn't have a resource type "${typed}"`);
  const root = KINDS[t.kind];
  if (!root) throw fail(`no documentation for ${t.kind} in this playground (try pods, deployments, services, ...)`);
  let doc = root;
  let fieldName = '';
  for (const p of path) {
    const next = doc.fields?.[p];
    if (!next) throw fail(`field "${p}" does not exist`);
    doc = next;
    fieldName = p;
  }
  let s = t.group ? `GROUP:      ${t.group}\n` : '';
  s += `KIND:       ${t.kind}\nVERSION:    ${t.version}\n\n`;
  if (fieldName) s += `FIELD: ${fieldName} <${doc.type}>\n\n\n`;
  s += `DESCRIPTION:\n${wrapIndent(doc.desc)}\n    \n`;
  if (doc.fields) s += fieldsBlock(doc.fields) + '\n';
  env.out(s);
  return 0;
}
