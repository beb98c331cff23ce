/**
 * The bookshop's manifests as the engine reads them: byte-for-byte copies of
 * fixtures/k8s-bookshop/manifests (engineers-musings/k8s-bookshop at commit
 * ac04f117becf048e2a87447e7ec30fe8d0780c67, see fixtures/k8s-bookshop/SOURCE.md), keyed by their
 * path in that repository. The engine is pure (no node:fs), so the texts live here;
 * bookshop.test.ts checks that they still equal the fixture files.
 *
 * Also what `make up` creates besides them (the repository's Makefile, target `deploy`).
 */

/** Files of the bookshop repository, by repository path (`manifests/bookshop/catalog.yaml`). */
export const BOOKSHOP_FILES: Readonly<Record<string, string>> = {
  "manifests/bookshop/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: bookshop
# \`commonLabels\` is deprecated in current kustomize — \`labels\` is the replacement.
labels:
  - pairs:
      part-of: bookshop
    includeSelectors: false
resources:
  - config.yaml
  - catalog.yaml
  - orders.yaml
  - web.yaml
  - postgres.yaml
`,
  "manifests/bookshop/config.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: bookshop-config
data:
  GREETING: "The Bookshop"
  CURRENCY: "$"
  # Consumed as a MOUNTED FILE, not an env var — so that editing this ConfigMap
  # changes the running banner without restarting a pod. An env var would not.
  banner.txt: "Free shipping on orders over 30"
`,
  "manifests/bookshop/catalog.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: catalog
  labels:
    app: catalog
    part-of: bookshop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: catalog
  template:
    metadata:
      labels:
        app: catalog
        part-of: bookshop
    spec:
      containers:
        - name: catalog
          image: bookshop:v1
          command: ["/usr/local/bin/catalog"]
          ports:
            - name: http
              containerPort: 8080
          env:
            # The password comes from the Secret; the rest of the DSN is not sensitive.
            - name: PGPASSWORD
              valueFrom:
                secretKeyRef:
                  name: bookshop-secrets
                  key: PGPASSWORD
            - name: DATABASE_URL
              value: postgres://bookshop:$(PGPASSWORD)@postgres:5432/bookshop?sslmode=disable
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: NODE_NAME
              valueFrom:
                fieldRef:
                  fieldPath: spec.nodeName
          # Liveness asks "is this process wedged?"; readiness asks "can it serve?".
          # catalog's readiness fails while Postgres is unreachable — but its liveness does
          # NOT, because restarting the container would not fix someone else's database.
          readinessProbe:
            httpGet: { path: /readyz, port: http }
            periodSeconds: 3
          livenessProbe:
            httpGet: { path: /healthz, port: http }
            periodSeconds: 5
          resources:
            requests: { cpu: 20m, memory: 32Mi }
            limits: { memory: 128Mi }
---
apiVersion: v1
kind: Service
metadata:
  name: catalog
spec:
  selector:
    app: catalog
  ports:
    - name: http
      port: 80
      targetPort: http
`,
  "manifests/bookshop/orders.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders
  labels:
    app: orders
    part-of: bookshop
spec:
  replicas: 1
  selector:
    matchLabels:
      app: orders
  template:
    metadata:
      labels:
        app: orders
        part-of: bookshop
    spec:
      containers:
        - name: orders
          image: bookshop:v1
          command: ["/usr/local/bin/orders"]
          ports:
            - name: http
              containerPort: 8080
          env:
            - name: CATALOG_URL
              value: http://catalog
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: NODE_NAME
              valueFrom:
                fieldRef:
                  fieldPath: spec.nodeName
          readinessProbe:
            httpGet: { path: /readyz, port: http }
            periodSeconds: 3
          livenessProbe:
            httpGet: { path: /healthz, port: http }
            periodSeconds: 5
          resources:
            requests: { cpu: 20m, memory: 32Mi }
            limits: { memory: 128Mi }
---
apiVersion: v1
kind: Service
metadata:
  name: orders
spec:
  selector:
    app: orders
  ports:
    - name: http
      port: 80
      targetPort: http
`,
  "manifests/bookshop/web.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
    part-of: bookshop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
        part-of: bookshop
    spec:
      containers:
        - name: web
          image: bookshop:v1
          command: ["/usr/local/bin/web"]
          ports:
            - name: http
              containerPort: 8080
          envFrom:
            - configMapRef:
                name: bookshop-config
            - secretRef:
                name: bookshop-secrets
          env:
            - name: CATALOG_URL
              value: http://catalog
            - name: ORDERS_URL
              value: http://orders
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: NODE_NAME
              valueFrom:
                fieldRef:
                  fieldPath: spec.nodeName
          volumeMounts:
            - name: config
              mountPath: /etc/bookshop
          readinessProbe:
            httpGet: { path: /readyz, port: http }
            periodSeconds: 3
          livenessProbe:
            httpGet: { path: /healthz, port: http }
            periodSeconds: 5
          lifecycle:
            # Without this, a rolling update drops requests: the pod stops serving the
            # moment it gets SIGTERM, while kube-proxy is still routing to it. The sleep
            # keeps it serving until every node has removed it from the EndpointSlice.
            preStop:
              exec:
                command: ["sleep", "5"]
          resources:
            requests: { cpu: 20m, memory: 32Mi }
            limits: { memory: 128Mi }
      volumes:
        - name: config
          configMap:
            name: bookshop-config
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: NodePort
  selector:
    app: web
  ports:
    - name: http
      port: 80
      targetPort: http
      nodePort: 30080
`,
  "manifests/bookshop/postgres.yaml": `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: books-data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: books-schema
data:
  # Mounted into the image's docker-entrypoint-initdb.d, which Postgres runs
  # exactly once — on an empty data directory. Restore the pod and it does not
  # run again, which is precisely what makes the persistence test meaningful.
  schema.sql: |
    CREATE TABLE books (
      isbn   TEXT PRIMARY KEY,
      title  TEXT NOT NULL,
      author TEXT NOT NULL,
      price  NUMERIC(6,2) NOT NULL
    );
    INSERT INTO books (isbn, title, author, price) VALUES
      ('978-0134494166', 'Clean Architecture', 'Robert C. Martin', 34.99),
      ('978-1492034025', 'Designing Data-Intensive Applications', 'Martin Kleppmann', 49.99),
      ('978-0132350884', 'Clean Code', 'Robert C. Martin', 39.99),
      ('978-1449373320', 'Kubernetes: Up and Running', 'Kelsey Hightower', 44.99);
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: postgres
  labels:
    app: postgres
    part-of: bookshop
spec:
  replicas: 1
  strategy:
    # A ReadWriteOnce volume cannot be attached to an old and a new pod at once,
    # and the default RollingUpdate would try exactly that.
    type: Recreate
  selector:
    matchLabels:
      app: postgres
  template:
    metadata:
      labels:
        app: postgres
        part-of: bookshop
    spec:
      containers:
        - name: postgres
          image: postgres:17-alpine
          ports:
            - name: pg
              containerPort: 5432
          env:
            - name: POSTGRES_DB
              value: bookshop
            - name: POSTGRES_USER
              value: bookshop
            - name: POSTGRES_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: bookshop-secrets
                  key: PGPASSWORD
            # Postgres refuses to initialise into a directory that already has a
            # lost+found in it. On many StorageClasses the mount root does, so
            # the data lives one level down.
            - name: PGDATA
              value: /var/lib/postgresql/data/pgdata
          volumeMounts:
            - name: data
              mountPath: /var/lib/postgresql/data
            - name: schema
              mountPath: /docker-entrypoint-initdb.d
          readinessProbe:
            exec:
              command: ["pg_isready", "-U", "bookshop", "-d", "bookshop"]
            periodSeconds: 5
          resources:
            requests: { cpu: 50m, memory: 128Mi }
            limits: { memory: 512Mi }
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: books-data
        - name: schema
          configMap:
            name: books-schema
---
apiVersion: v1
kind: Service
metadata:
  name: postgres
spec:
  selector:
    app: postgres
  ports:
    - name: pg
      port: 5432
      targetPort: pg
`,
  "manifests/overlays/staging/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: bookshop-staging
resources:
  - ../../bookshop
# An overlay is a PATCH, not a copy. Anything not named here is inherited from the base.
replicas:
  - name: web
    count: 1
  - name: catalog
    count: 1
patches:
  # GREETING reaches the pod through \`envFrom\` (the bookshop-config ConfigMap), NOT through
  # the container's \`env:\` list. So the thing to patch is the CONFIGMAP.
  #
  # The obvious-looking alternative is a JSON-6902 patch on
  #     /spec/template/spec/containers/0/env/0/value
  # and it is a trap: env[0] is CATALOG_URL. That patch does not set the greeting at all —
  # it silently overwrites the catalog's URL, and the staging storefront then renders
  # "catalog is unreachable". Never index \`env\` positionally in a base you do not control.
  - target: { kind: ConfigMap, name: bookshop-config }
    patch: |-
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: bookshop-config
      data:
        GREETING: "The Bookshop (STAGING)"

  # A nodePort is a CLUSTER-WIDE singleton. The base pins 30080, so a second
  # environment cannot reuse it — strip it and let Kubernetes allocate one.
  - target: { kind: Service, name: web }
    patch: |-
      - op: remove
        path: /spec/ports/0/nodePort
`,
  "manifests/shelf-controller/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: bookshop

resources:
  - crd.yaml
  - rbac.yaml
  - deployment.yaml

# NOTE: the controller's program (controller/reconcile.sh) is NOT generated here.
# Kustomize refuses to read files outside its own directory:
#
#   error: loading KV pairs: file sources: [reconcile.sh=../../controller/reconcile.sh]:
#   security; file '.../controller/reconcile.sh' is not in or below '.../manifests/shelf-controller'
#
# That is a deliberate sandbox rule, not a bug. So the \`controller\` target in the Makefile
# creates the \`controller-src\` ConfigMap from the script with \`kubectl create configmap
# --from-file\`, which the Deployment then mounts. Run \`make controller\`, not \`kubectl apply -k\`
# on its own — the Deployment will not start without that ConfigMap.
`,
  "manifests/shelf-controller/crd.yaml": `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: shelves.bookshop.engineers-musings.dev
spec:
  group: bookshop.engineers-musings.dev
  scope: Namespaced
  names:
    plural: shelves
    singular: shelf
    kind: Shelf
    shortNames: [sh]
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [displayName, isbns]
              properties:
                displayName: { type: string }
                isbns:
                  type: array
                  items: { type: string }
            status:
              type: object
              properties:
                bookCount: { type: integer }
      # Without this, .status is just another field the user could write. With it,
      # .status has its own endpoint — which is what lets the controller own it.
      subresources:
        status: {}
      additionalPrinterColumns:
        - { name: Display, type: string, jsonPath: .spec.displayName }
        - { name: Books, type: integer, jsonPath: .status.bookCount }
`,
  "manifests/shelf-controller/rbac.yaml": `apiVersion: v1
kind: ServiceAccount
metadata:
  name: shelf-controller
  namespace: bookshop
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: shelf-controller
  namespace: bookshop
rules:
  # Note \`shelves/status\` is a SEPARATE resource from \`shelves\`. Granting one does
  # not grant the other, which is the point of the status subresource.
  - apiGroups: ["bookshop.engineers-musings.dev"]
    resources: ["shelves", "shelves/status"]
    verbs: ["get", "list", "watch", "update", "patch"]
  - apiGroups: [""]
    resources: ["configmaps"]
    verbs: ["get", "list", "create", "update", "patch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: shelf-controller
  namespace: bookshop
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: shelf-controller
subjects:
  - kind: ServiceAccount
    name: shelf-controller
    namespace: bookshop
`,
  "manifests/shelf-controller/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shelf-controller
  namespace: bookshop
spec:
  replicas: 1
  selector:
    matchLabels: { app: shelf-controller }
  template:
    metadata:
      labels: { app: shelf-controller }
    spec:
      serviceAccountName: shelf-controller
      containers:
        - name: controller
          # NOT registry.k8s.io/kubectl — that image is distroless and has no shell,
          # so a shell-loop controller cannot run in it. See controller/Dockerfile.
          image: bookshop-controller:v1
          command: ["sh", "/src/reconcile.sh"]
          volumeMounts:
            - { name: src, mountPath: /src }
          resources:
            requests: { cpu: 10m, memory: 16Mi }
            limits: { memory: 64Mi }
      volumes:
        - name: src
          configMap: { name: controller-src }
`,
  "manifests/shelf-controller/example-shelf.yaml": `# Create this and then look at \`kubectl get shelves\`. The BOOKS column stays EMPTY until a
# controller is running: the object is accepted, validated, and stored, and nothing happens.
# A CRD without a controller is a database row with good manners.
apiVersion: bookshop.engineers-musings.dev/v1
kind: Shelf
metadata:
  name: staff-picks
  namespace: bookshop
spec:
  displayName: "Staff Picks"
  isbns:
    - "978-0132350884"
    - "978-1492034025"
    - "978-1449373320"
`,
};

/** The namespace `make deploy` creates (`kubectl create namespace bookshop ... | kubectl apply -f -`). */
export const BOOKSHOP_NAMESPACE = 'bookshop';

/**
 * The Secret `make deploy` creates: `kubectl create secret generic bookshop-secrets -n bookshop
 * --from-literal=API_KEY=sk-live-abcd1234 --from-literal=PGPASSWORD=s3cret --dry-run=client -o yaml
 * | kubectl apply -f -` (k8s-bookshop Makefile at ac04f117).
 */
export const BOOKSHOP_SECRET_LITERALS: Readonly<Record<string, string>> = { API_KEY: 'sk-live-abcd1234', PGPASSWORD: 's3cret' };

/** Images `make build` + `make load` put on every node (`kind load docker-image bookshop:v1 bookshop:v2`). */
export const BOOKSHOP_IMAGES: readonly string[] = ['bookshop:v1', 'bookshop:v2'];

/** The shelf-controller image (`make controller`: `docker build -t bookshop-controller:v1 controller/` and `kind load`). */
export const SHELF_CONTROLLER_IMAGE = 'bookshop-controller:v1';

/** The kustomization directory `make deploy` applies (`kubectl apply -k manifests/bookshop`). */
export const BOOKSHOP_KUSTOMIZATION_DIR = 'manifests/bookshop';
