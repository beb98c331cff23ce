import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { newHostTestCluster, type ManifestFiles } from "./cluster";
import { applyYaml, getObject } from "./editing";
import type { EditReply } from "../protocol/messages";

const DIR = new URL(
  "../../fixtures/k8s-bookshop/manifests/bookshop/",
  import.meta.url,
);
const FILES: ManifestFiles = Object.fromEntries(
  [
    "config.yaml",
    "catalog.yaml",
    "orders.yaml",
    "web.yaml",
    "postgres.yaml",
  ].map((f) => [f, readFileSync(new URL(f, DIR), "utf8")]),
);

function applied(r: EditReply) {
  if (r.op !== "apply")
    throw new Error(`not an apply reply: ${JSON.stringify(r)}`);
  return r;
}

describe("YAML editor: strict field validation (kubectl --validate=strict)", () => {
  it("a misspelled field in an edit is an invalid patch (strict decoding error) and leaves the object", () => {
    const c = newHostTestCluster(1, FILES);
    c.clock.advance(c.warmupMs);
    const r = getObject(c, "Deployment", "bookshop", "catalog");
    if (r.op !== "get" || !r.ok) throw new Error(JSON.stringify(r));
    const edited = r.yaml.replace(
      "  replicas: 2\n",
      "  replicas: 3\n  replica: 3\n",
    );
    const res = applied(
      applyYaml(c, {
        op: "apply",
        mode: "edit",
        yaml: edited,
        base: r.yaml,
        resourceVersion: r.resourceVersion,
      }),
    ).results[0];
    expect(res.ok).toBe(false);
    expect(res.text).toMatch(
      /^The request is invalid: patch: Invalid value: "map\[metadata:map\[resourceVersion:\d+\] spec:map\[replica:3 replicas:3\]\]": strict decoding error: unknown field "spec.replica"$/,
    );
    expect(c.api.get("deployments", "bookshop", "catalog").spec.replicas).toBe(
      2,
    );
  });

  it("places the edit's unknown field at its line (the invalid patch's one cause is the field `patch`, no line of the buffer)", () => {
    const c = newHostTestCluster(1, FILES);
    c.clock.advance(c.warmupMs);
    const r = getObject(c, "Deployment", "bookshop", "catalog");
    if (r.op !== "get" || !r.ok) throw new Error(JSON.stringify(r));
    // A learner's typo: `replicas` misspelled, so the patch also drops `replicas`.
    const edited = r.yaml.replace("  replicas: 2\n", "  replcas: 3\n");
    const line = edited.split("\n").indexOf("  replcas: 3") + 1;
    expect(line).toBeGreaterThan(1);
    const res = applied(
      applyYaml(c, { op: "apply", mode: "edit", yaml: edited, base: r.yaml, resourceVersion: r.resourceVersion }),
    ).results[0];
    expect(res.ok).toBe(false);
    expect(res.status?.message).toMatch(/^patch: Invalid value: .*strict decoding error: unknown field "spec.replcas"$|strict decoding error: unknown field "spec.replcas"/);
    expect(res.status?.causes).toEqual([
      { reason: "FieldValueInvalid", message: 'unknown field "spec.replcas"', field: "spec.replcas", line },
    ]);
  });

  it("apply mode refuses an unknown field as kubectl apply does", () => {
    const c = newHostTestCluster(1, FILES);
    c.clock.advance(c.warmupMs);
    const yaml =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: bookshop\ndata:\n  a: "1"\nbogus: 1\n';
    const res = applied(applyYaml(c, { op: "apply", mode: "apply", yaml }))
      .results[0];
    expect(res.ok).toBe(false);
    expect(res.text).toContain(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"',
    );
    // The bare BadRequest has no causes; the editor places the named field at its line.
    expect(res.status?.causes).toEqual([expect.objectContaining({ field: "bogus", line: 8, message: 'unknown field "bogus"' })]);
  });
});
