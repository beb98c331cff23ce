import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { bench } from "./testing";

const BAD2 =
  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\nspec:\n  containers:\n  - name: c\n    image: nginx\n    bogus: 1\n";
const BAD5 =
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad5\nspec:\n  containers:\n  - name: c\n    image: nginx\n    imagePullPolicy: Sometimes\n    ports:\n    - containerPort: "80"\n';
const BAD7 =
  "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: a\n  template:\n    metadata:\n      labels:\n        app: a\n    spec:\n      contianers:\n      - name: c\n        image: nginx\n";
const OK =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: "1"\n';

describe("kubectl --validate (server-side field validation)", () => {
  it("apply and create -f refuse an unknown field with the strict decoding error (default --validate=strict)", () => {
    const b = bench({ files: { "bad2.yaml": BAD2 } });
    expect(b.run("kubectl apply -f bad2.yaml")).toEqual({
      stdout: "",
      stderr:
        'Error from server (BadRequest): error when creating "bad2.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"\n',
      code: 1,
    });
    expect(b.run("kubectl create -f bad2.yaml --validate=strict").stderr).toBe(
      'Error from server (BadRequest): error when creating "bad2.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"\n',
    );
    expect(b.c.api.tryGet("pods", "default", "bad")).toBeUndefined();
  });

  it("a misspelled field is reported as unknown, not as the missing field it hides", () => {
    const b = bench({ files: { "bad7.yaml": BAD7 } });
    expect(b.run("kubectl apply -f bad7.yaml").stderr).toBe(
      'Error from server (BadRequest): error when creating "bad7.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.contianers"\n',
    );
  });

  it("a string where Go wants an int32 is the json unmarshal error, before validation", () => {
    const b = bench({ files: { "bad5.yaml": BAD5 } });
    expect(b.run("kubectl apply -f bad5.yaml").stderr).toBe(
      'Error from server (BadRequest): error when creating "bad5.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32\n',
    );
  });

  it("--validate=warn creates the object without the field and prints the warning; --validate=false is silent", () => {
    const b = bench({ files: { "bad2.yaml": BAD2 } });
    expect(b.run("kubectl apply -f bad2.yaml --validate=warn")).toEqual({
      stdout: "pod/bad created\n",
      stderr: 'Warning: unknown field "spec.containers[0].bogus"\n',
      code: 0,
    });
    expect(
      b.c.api.get("pods", "default", "bad").spec.containers[0],
    ).not.toHaveProperty("bogus");
    b.run("kubectl delete pod bad --wait=false");
    b.c.run(60_000);
    expect(b.run("kubectl create -f bad2.yaml --validate=false")).toEqual({
      stdout: "pod/bad created\n",
      stderr: "",
      code: 0,
    });
  });

  it("valid manifests still apply, create and re-apply cleanly", () => {
    const b = bench({ files: { "ok.yaml": OK } });
    expect(b.run("kubectl apply -f ok.yaml")).toEqual({
      stdout: "configmap/cfg created\n",
      stderr: "",
      code: 0,
    });
    expect(b.run("kubectl apply -f ok.yaml")).toEqual({
      stdout: "configmap/cfg unchanged\n",
      stderr: "",
      code: 0,
    });
  });

  it("kubectl patch sends no fieldValidation: the server default (Warn) drops the field and warns", () => {
    const b = bench({ files: { "ok.yaml": OK } });
    b.run("kubectl apply -f ok.yaml");
    expect(b.run(`kubectl patch configmap cfg -p '{"bogus":1}'`)).toEqual({
      stdout: "configmap/cfg patched (no change)\n",
      stderr: 'Warning: unknown field "bogus"\n',
      code: 0,
    });
    expect(b.c.api.get("configmaps", "default", "cfg")).not.toHaveProperty(
      "bogus",
    );
  });

  it("re-applying with an unknown field: the patch is refused as an invalid request naming the patch", () => {
    const b = bench({
      files: { "ok.yaml": OK, "ok2.yaml": OK + "bogus: 1\n" },
    });
    b.run("kubectl apply -f ok.yaml");
    const lastApplied =
      '{\\"apiVersion\\":\\"v1\\",\\"bogus\\":1,\\"data\\":{\\"a\\":\\"1\\"},\\"kind\\":\\"ConfigMap\\",\\"metadata\\":{\\"annotations\\":{},\\"name\\":\\"cfg\\",\\"namespace\\":\\"default\\"}}\\n';
    expect(b.run("kubectl apply -f ok2.yaml")).toEqual({
      stdout: "",
      stderr: `The request is invalid: patch: Invalid value: "map[bogus:1 metadata:map[annotations:map[kubectl.kubernetes.io/last-applied-configuration:${lastApplied}]]]": strict decoding error: unknown field "bogus"\n`,
      code: 1,
    });
  });

  it("a bad --validate value fails before any request", () => {
    const b = bench({ files: { "ok.yaml": OK } });
    expect(b.run("kubectl apply -f ok.yaml --validate=maybe")).toEqual({
      stdout: "",
      stderr:
        'error: invalid - validate option "maybe"; must be one of: strict (or true), warn, ignore (or false)\n',
      code: 1,
    });
    expect(b.c.api.tryGet("configmaps", "default", "cfg")).toBeUndefined();
  });

  it("corpus row 11 (pod-with-node-affinity, broken revision): rejected with the NodeAffinity unmarshal error, nothing created", () => {
    const file = "website__pods-pod-with-node-affinity.yaml";
    const text = readFileSync(
      new URL(`../../../fixtures/corpus/manifests/${file}`, import.meta.url),
      "utf8",
    );
    const b = bench({ files: { [file]: text } });
    expect(b.run(`kubectl apply -f ${file}`)).toEqual({
      stdout: "",
      stderr: `Error from server (BadRequest): error when creating "${file}": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field NodeAffinity.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector\n`,
      code: 1,
    });
    expect(b.c.api.list("pods", { namespace: "default" }).items).toEqual([]);
  });
});

describe("warnings of a rejected request", () => {
  const BAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: bad
spec:
  replicas: -1
  selector:
    matchLabels: {app: bad}
  template:
    metadata:
      labels: {app: bad}
    spec:
      containers:
      - name: c
        image: nginx:1.27
        foo: bar
`;
  const WARNING = 'Warning: unknown field "spec.template.spec.containers[0].foo"\n';
  const INVALID = 'The Deployment "bad" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n';

  it("fieldValidation=Warn: the unknown-field warning comes before the validation error (apply, create, diff, replace)", () => {
    const b = bench({ files: { "/bad.yaml": BAD } });
    expect(b.run("kubectl apply -f /bad.yaml --validate=warn")).toEqual({ stdout: "", stderr: WARNING + INVALID, code: 1 });
    expect(b.run("kubectl create -f /bad.yaml --validate=warn")).toEqual({ stdout: "", stderr: WARNING + INVALID, code: 1 });
    // kubectl diff sends no fieldValidation (the server's default, Warn); its errors exit 2.
    expect(b.run("kubectl diff -f /bad.yaml")).toEqual({ stdout: "", stderr: WARNING + INVALID, code: 2 });
    expect(b.run("kubectl replace -f /bad.yaml --validate=warn")).toEqual({
      stdout: "",
      stderr: `${WARNING}Error from server (NotFound): error when replacing "/bad.yaml": deployments.apps "bad" not found\n`,
      code: 1,
    });
  });

  it("a patch with a value of the wrong type is refused, never stored (strategic: the converter's error; merge/json: encoding/json's)", () => {
    const b = bench();
    b.run("kubectl create deployment web --image=nginx:1.27");
    // patch.go applyPatchToObject -> FromUnstructuredWithValidation (converter.go: a string is
    // not ConvertibleTo int32, so `unrecognized type: int32`; kubernetes/kubernetes#126969).
    expect(b.run(`kubectl patch deploy web -p '{"spec":{"replicas":"x"}}'`)).toEqual({
      stdout: "",
      stderr: 'The request is invalid: patch: Invalid value: "map[spec:map[replicas:x]]": unrecognized type: int32\n',
      code: 1,
    });
    expect(b.run(`kubectl patch deploy web -p '{"spec":{"template":{"spec":{"containers":"oops"}}}}'`).stderr).toBe(
      'The request is invalid: patch: Invalid value: "map[spec:map[template:map[spec:map[containers:oops]]]]": cannot restore slice from string\n',
    );
    // jsonPatcher: runtime.DecodeInto of the patched JSON; the value named is that JSON.
    const merge = b.run(`kubectl patch deploy web --type=merge -p '{"spec":{"replicas":"y"}}'`);
    expect(merge.code).toBe(1);
    expect(merge.stderr).toMatch(/^The request is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"apps\/v1\\",.*\\"replicas\\":\\"y\\",.*": json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32\n$/);
    const json = b.run(`kubectl patch deploy web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":"z"}]'`);
    expect(json.stderr).toMatch(/": json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32\n$/);
    expect(b.c.api.get("deployments", "default", "web").spec.replicas).toBe(1);
    expect(b.run(`kubectl patch deploy web -p '{"spec":{"replicas":3}}'`).stdout).toBe("deployment.apps/web patched\n");
  });
});
