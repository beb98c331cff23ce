/**
 * Starting points for new objects in the YAML editor: the shapes of the Kubernetes docs'
 * examples (concepts/workloads/...), in the playground's `default` namespace, with images the
 * simulated registry knows. Applied as `kubectl apply -f -` would apply the file.
 */

/** A named template. */
export interface Template {
  id: string;
  label: string;
  yaml: string;
}

/** The templates, in menu order. */
export const TEMPLATES: readonly Template[] = [
  {
    id: 'deployment',
    label: 'Deployment',
    yaml: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: demo
  labels:
    app: demo
spec:
  replicas: 2
  selector:
    matchLabels:
      app: demo
  template:
    metadata:
      labels:
        app: demo
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
`,
  },
  {
    id: 'pod',
    label: 'Pod (bare, no controller)',
    yaml: `apiVersion: v1
kind: Pod
metadata:
  name: sleeper
  labels:
    app: sleeper
spec:
  containers:
  - name: busybox
    image: busybox:1.36
    command: ["sleep", "3600"]
`,
  },
  {
    id: 'service',
    label: 'Service',
    yaml: `apiVersion: v1
kind: Service
metadata:
  name: demo
spec:
  selector:
    app: demo
  ports:
  - name: http
    port: 80
    targetPort: 80
`,
  },
  {
    id: 'job',
    label: 'Job',
    yaml: `apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  backoffLimit: 4
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: pi
        image: perl:5.40
        command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
`,
  },
  {
    id: 'statefulset',
    label: 'StatefulSet',
    yaml: `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 2
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: postgres
        image: postgres:16
        env:
        - name: POSTGRES_PASSWORD
          value: example
`,
  },
  {
    id: 'daemonset',
    label: 'DaemonSet',
    yaml: `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
spec:
  selector:
    matchLabels:
      app: node-agent
  template:
    metadata:
      labels:
        app: node-agent
    spec:
      containers:
      - name: agent
        image: busybox:1.36
        command: ["sleep", "infinity"]
`,
  },
];
