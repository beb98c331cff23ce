/**
 * The default RBAC policy kube-apiserver's rbac/bootstrap-roles post-start hook creates
 * (src/engine/api/bootstrappolicy.ts): what `kubectl get`/`describe` show of it and how
 * `kubectl auth can-i` answers for a ServiceAccount bound to the built-in view/edit/admin roles.
 */
import { describe, expect, it } from "vitest";
import { bench } from "./testing";

const AS = "--as=system:serviceaccount:default:sa";

describe("default bootstrap RBAC policy", () => {
  it("kubectl get clusterroles lists the bootstrap ClusterRoles, labelled rbac-defaults and annotated autoupdate", () => {
    const b = bench();
    const names = b
      .run(
        "kubectl get clusterroles -l kubernetes.io/bootstrapping=rbac-defaults -o name",
      )
      .stdout.trim()
      .split("\n");
    // 31 of bootstrappolicy ClusterRoles() + 37 system:controller:* ControllerRoles() (1.35 default gates).
    expect(names).toHaveLength(68);
    expect(names.filter((n) => n.startsWith("clusterrole.rbac.authorization.k8s.io/system:controller:"))).toHaveLength(37);
    for (const n of [
      "admin",
      "cluster-admin",
      "edit",
      "view",
      "system:aggregate-to-view",
      "system:basic-user",
      "system:discovery",
      "system:public-info-viewer",
      "system:node",
      "system:node-proxier",
      "system:kube-scheduler",
      "system:kube-controller-manager",
      "system:kube-dns",
      "system:volume-scheduler",
      "system:monitoring",
      "system:heapster",
      "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
    ]) {
      expect(names).toContain(`clusterrole.rbac.authorization.k8s.io/${n}`);
    }
    expect(b.run("kubectl describe clusterrole view").stdout).toMatch(
      /^Annotations:\s+rbac\.authorization\.kubernetes\.io\/autoupdate: true$/m,
    );
    const bindings = b.run("kubectl get clusterrolebindings -o wide").stdout;
    expect(bindings).toMatch(
      /^cluster-admin\s+ClusterRole\/cluster-admin\s+\S+\s+system:masters/m,
    );
    expect(bindings).toMatch(
      /^system:public-info-viewer\s+ClusterRole\/system:public-info-viewer\s+\S+\s+system:authenticated, system:unauthenticated/m,
    );
    expect(
      b.run("kubectl get rolebindings -n kube-system -o name").stdout,
    ).toContain(
      "rolebinding.rbac.authorization.k8s.io/system::leader-locking-kube-scheduler\n",
    );
  });

  it("describe clusterrole view shows the aggregated read-only rules, no secrets", () => {
    const out = bench().run("kubectl describe clusterrole view").stdout;
    expect(out).toMatch(/^Name:\s+view$/m);
    expect(out).toMatch(
      /^Labels:\s+kubernetes\.io\/bootstrapping=rbac-defaults$/m,
    );
    expect(out).toMatch(
      /^\s+rbac\.authorization\.k8s\.io\/aggregate-to-edit=true$/m,
    );
    expect(out).toMatch(/^ {2}pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(out).toMatch(
      /^ {2}deployments\.apps\s+\[\]\s+\[\]\s+\[get list watch\]$/m,
    );
    expect(out).toMatch(/^ {2}pods\/log\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(out).not.toMatch(/^ {2}secrets\s/m);
  });

  it("a ServiceAccount bound to view may read pods but not create them or read secrets", () => {
    const b = bench();
    b.run("kubectl create sa sa");
    expect(b.run(`kubectl auth can-i get pods ${AS}`)).toMatchObject({
      stdout: "no\n",
      code: 1,
    });
    expect(
      b.run(
        "kubectl create rolebinding x --clusterrole=view --serviceaccount=default:sa",
      ).stdout,
    ).toBe("rolebinding.rbac.authorization.k8s.io/x created\n");
    expect(b.run(`kubectl auth can-i get pods ${AS}`)).toMatchObject({
      stdout: "yes\n",
      code: 0,
    });
    expect(
      b.run(`kubectl auth can-i list deployments.apps ${AS}`),
    ).toMatchObject({ stdout: "yes\n", code: 0 });
    expect(b.run(`kubectl auth can-i create pods ${AS}`)).toMatchObject({
      stdout: "no\n",
      code: 1,
    });
    expect(b.run(`kubectl auth can-i get secrets ${AS}`)).toMatchObject({
      stdout: "no\n",
      code: 1,
    });
    expect(
      b.run(`kubectl auth can-i get pods ${AS} -n kube-system`),
    ).toMatchObject({ stdout: "no\n", code: 1 });
  });

  it("edit adds writes and secrets but not RBAC; admin adds roles and rolebindings", () => {
    const b = bench();
    b.run("kubectl create sa sa");
    b.run(
      "kubectl create rolebinding e --clusterrole=edit --serviceaccount=default:sa",
    );
    expect(b.run(`kubectl auth can-i create pods ${AS}`)).toMatchObject({
      stdout: "yes\n",
      code: 0,
    });
    expect(b.run(`kubectl auth can-i get secrets ${AS}`)).toMatchObject({
      stdout: "yes\n",
      code: 0,
    });
    expect(b.run(`kubectl auth can-i create rolebindings ${AS}`)).toMatchObject(
      { stdout: "no\n", code: 1 },
    );
    b.run(
      "kubectl create rolebinding a --clusterrole=admin --serviceaccount=default:sa",
    );
    expect(b.run(`kubectl auth can-i create rolebindings ${AS}`)).toMatchObject(
      { stdout: "yes\n", code: 0 },
    );
    expect(b.run(`kubectl auth can-i create namespaces ${AS}`)).toMatchObject({
      stdout: "no\n",
      code: 1,
    });
    b.run(
      "kubectl create clusterrolebinding ca --clusterrole=cluster-admin --serviceaccount=default:sa",
    );
    expect(b.run(`kubectl auth can-i create namespaces ${AS}`)).toMatchObject({
      stdout: "yes\n",
      code: 0,
    });
  });
});
