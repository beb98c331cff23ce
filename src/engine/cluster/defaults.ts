/**
 * Defaults of a playground cluster.
 *
 * `DEFAULT_KIND_CONFIG` is the bookshop's kind cluster configuration, copied byte for byte from
 * fixtures/k8s-bookshop/cluster/kind.yaml (engineers-musings/k8s-bookshop, cluster/kind.yaml at
 * ac04f117becf048e2a87447e7ec30fe8d0780c67): the engine cannot read files, so the text lives here
 * and defaults.test.ts checks that it still equals the fixture.
 */

/** fixtures/k8s-bookshop/cluster/kind.yaml: cluster `k8s-lab`, one control plane (port 30080 mapped), two workers. */
export const DEFAULT_KIND_CONFIG = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
name: k8s-lab
nodes:
  # Three nodes on purpose. A single-node cluster hides everything interesting about
  # scheduling, and the taints chapter has nowhere to put a pod.
  - role: control-plane
    extraPortMappings:
      # The bookshop's NodePort, mapped to localhost:30080 on your machine.
      - containerPort: 30080
        hostPort: 30080
        protocol: TCP
  - role: worker
  - role: worker
`;

/**
 * The Kubernetes version of the simulated node image (kindest/node), consistent with
 * kindNodeFilesystem's default (/kind/version) and kindNodeImages' table: control-plane images are
 * registry.k8s.io/<component>:v1.35.0, etcd 3.6.5-0, CoreDNS v1.13.1, kindnetd v20251212-a2f6fe2d.
 */
export const DEFAULT_KUBERNETES_VERSION = 'v1.35.0';
