import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { Clock, Rng } from "../clock";
import { ApiServer } from "./server";
import { ApiError } from "./errors";
import { base64CorruptAt, findDecodeErrors } from "./decode";
import { parseManifests } from "./yaml";
import type { KubeObject } from "./types";

/** An API server with the default namespace's service account (pod admission needs it). */
function newApi(): ApiServer {
  const api = new ApiServer(new Clock(), new Rng(1));
  api.create({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "default", namespace: "default" },
  });
  return api;
}

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

function pod(
  name: string,
  container: Record<string, unknown> = {},
  spec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default" },
    spec: {
      containers: [{ name: "c", image: "nginx", ...container }],
      ...spec,
    },
  };
}

describe("strict decoding of request bodies (fieldValidation)", () => {
  it("Strict: an unknown field fails the create with 400 BadRequest, nothing is stored", () => {
    const api = newApi();
    const e = thrown(() =>
      api.create(pod("bad", { bogus: 1 }), { fieldValidation: "Strict" }),
    );
    expect(e.status.code).toBe(400);
    expect(e.status.reason).toBe("BadRequest");
    expect(e.status.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"',
    );
    expect(api.tryGet("pods", "default", "bad")).toBeUndefined();
  });

  it("lists every unknown field in body (sorted key) order, before any validation error", () => {
    const api = newApi();
    // What a user may type is not what the types allow: built as plain JSON, as kubectl sends it.
    const d = JSON.parse(
      JSON.stringify({
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "d", namespace: "default", zzz: 1 },
        spec: {
          selector: { matchLabels: { app: "a" } },
          template: {
            metadata: { labels: { app: "a" } },
            spec: { contianers: [{ name: "c", image: "nginx" }] },
          },
        },
      }),
    ) as KubeObject;
    expect(
      thrown(() => api.create(d, { fieldValidation: "Strict" })).status.message,
    ).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "metadata.zzz", unknown field "spec.template.spec.contianers"',
    );
  });

  it("a value of the wrong type is Go's UnmarshalTypeError, even with Ignore", () => {
    const api = newApi();
    const msg =
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32';
    expect(
      thrown(() =>
        api.create(pod("p", { ports: [{ containerPort: "80" }] }), {
          fieldValidation: "Strict",
        }),
      ).status.message,
    ).toBe(msg);
    expect(
      thrown(() =>
        api.create(pod("p", { ports: [{ containerPort: "80" }] }), {
          fieldValidation: "Ignore",
        }),
      ).status.message,
    ).toBe(msg);
    expect(
      findDecodeErrors(pod("p", { ports: [{ containerPort: 1.5 }] }))
        ?.typeError,
    ).toBe(
      "json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32",
    );
    expect(findDecodeErrors(pod("p", {}, { containers: "x" }))?.typeError).toBe(
      "json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container",
    );
    expect(
      findDecodeErrors({
        ...pod("p"),
        metadata: { name: "p", labels: { a: 1 } },
      })?.typeError,
    ).toBe(
      "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
    );
  });

  it("Warn creates the object and returns the unknown fields as warnings; Ignore drops them silently", () => {
    const api = newApi();
    const warnings: string[] = [];
    api.create(pod("w", { bogus: 1 }), { fieldValidation: "Warn", warnings });
    expect(warnings).toEqual(['unknown field "spec.containers[0].bogus"']);
    expect(
      api.get("pods", "default", "w").spec.containers[0],
    ).not.toHaveProperty("bogus");
    const quiet: string[] = [];
    api.create(pod("i", { bogus: 1 }), {
      fieldValidation: "Ignore",
      warnings: quiet,
    });
    expect(quiet).toEqual([]);
    expect(api.tryGet("pods", "default", "i")).toBeDefined();
  });

  it("without fieldValidation (controllers' typed writes) nothing is checked", () => {
    const api = newApi();
    expect(api.create(pod("c", { bogus: 1 })).metadata.name).toBe("c");
  });

  it("free-form values are not fields: labels, annotations, data, int-or-string, quantities, status, RawExtension", () => {
    const ok: KubeObject[] = [
      {
        ...pod("p", {
          resources: { limits: { cpu: 1, memory: "64Mi" } },
          livenessProbe: { httpGet: { port: "http", path: "/" } },
        }),
        status: { phase: "Pending" },
      },
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: "c",
          labels: { "a/b": "c" },
          annotations: { x: "y" },
        },
        data: { "any.key": "v" },
      },
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "s" },
        spec: {
          ports: [
            { port: 80, targetPort: 8080 },
            { port: 81, targetPort: "web" },
          ],
        },
      },
      {
        apiVersion: "apps/v1",
        kind: "ControllerRevision",
        metadata: { name: "r" },
        revision: 1,
        data: { spec: { anything: true } },
      },
    ];
    for (const o of ok)
      expect(findDecodeErrors(o)).toEqual({ unknown: [], drops: [] });
  });

  it("kinds without a field table (custom resources, newer kinds, other versions) are not checked", () => {
    expect(
      findDecodeErrors({
        apiVersion: "example.com/v1",
        kind: "Widget",
        spec: { anything: 1 },
      }),
    ).toBeUndefined();
    expect(
      findDecodeErrors({
        apiVersion: "policy/v1",
        kind: "PodDisruptionBudget",
        spec: { bogus: 1 },
      }),
    ).toBeUndefined();
    expect(
      findDecodeErrors({
        apiVersion: "apps/v1beta1",
        kind: "Deployment",
        spec: { bogus: 1 },
      }),
    ).toBeUndefined();
  });

  it("patch: a wrong type is a 422 whatever the validation directive; strategic patches word it as the unstructured converter", () => {
    const api = newApi();
    api.create(pod("p"));
    const smp = (p: unknown) => thrown(() => api.patch("pods", "default", "p", "strategic", p, { fieldValidation: "Ignore" })).kubectlMessage();
    expect(smp({ spec: { terminationGracePeriodSeconds: "30" } })).toBe('The request is invalid: patch: Invalid value: "map[spec:map[terminationGracePeriodSeconds:30]]": unrecognized type: int64');
    expect(smp({ spec: { terminationGracePeriodSeconds: 1.5 } })).toBe('The request is invalid: patch: Invalid value: "map[spec:map[terminationGracePeriodSeconds:1.5]]": cannot convert float64 to int64');
    expect(smp({ spec: { hostname: 7 } })).toBe('The request is invalid: patch: Invalid value: "map[spec:map[hostname:7]]": cannot convert int64 to string');
    expect(smp({ spec: { hostNetwork: "yes" } })).toBe('The request is invalid: patch: Invalid value: "map[spec:map[hostNetwork:yes]]": unrecognized type: bool');
    expect(smp({ spec: { securityContext: "x" } })).toBe('The request is invalid: patch: Invalid value: "map[spec:map[securityContext:x]]": cannot restore struct from: string');
    expect(smp({ spec: { nodeSelector: ["a"] } })).toBe('The request is invalid: patch: Invalid value: "map[spec:map[nodeSelector:[a]]]": cannot restore map from slice');
    const merge = thrown(() => api.patch("pods", "default", "p", "merge", { spec: { hostNetwork: "yes" } }, { fieldValidation: "Strict" }));
    expect(merge.status.code).toBe(422);
    expect(merge.kubectlMessage()).toMatch(/": json: cannot unmarshal string into Go struct field PodSpec\.spec\.hostNetwork of type bool$/);
    expect(api.get("pods", "default", "p").spec.hostNetwork).toBeUndefined();
  });

  it("patch: the patched object is checked, a strict error is a 422 naming the patch (kubectl: The request is invalid)", () => {
    const api = newApi();
    api.create(pod("p"));
    const e = thrown(() =>
      api.patch(
        "pods",
        "default",
        "p",
        "strategic",
        { spec: { foo: 1, bar: [true, "x", 1.5] } },
        { fieldValidation: "Strict" },
      ),
    );
    expect(e.status.code).toBe(422);
    expect(e.status.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[bar:[true x 1.5] foo:1]]": strict decoding error: unknown field "spec.bar", unknown field "spec.foo"',
    );
    expect(e.kubectlMessage()).toBe(
      'The request is invalid: patch: Invalid value: "map[spec:map[bar:[true x 1.5] foo:1]]": strict decoding error: unknown field "spec.bar", unknown field "spec.foo"',
    );
    const warnings: string[] = [];
    api.patch(
      "pods",
      "default",
      "p",
      "merge",
      { metadata: { labels: { a: "b" } }, spec: { foo: 1 } },
      { fieldValidation: "Warn", warnings },
    );
    expect(warnings).toEqual(['unknown field "spec.foo"']);
  });

  it("corpus row 11: required node affinity written as a list is rejected with the NodeAffinity type error", () => {
    const text = readFileSync(
      new URL(
        "../../../fixtures/corpus/manifests/website__pods-pod-with-node-affinity.yaml",
        import.meta.url,
      ),
      "utf8",
    );
    const manifest = parseManifests(text)[0].object as KubeObject;
    const api = newApi();
    expect(
      thrown(() => api.create(manifest, { fieldValidation: "Strict" })).status
        .message,
    ).toBe(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field NodeAffinity.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector',
    );
  });

  it("custom resources with a structural schema: pruned fields are the strict errors (sorted); Warn stores the pruned object", () => {
    const api = newApi();
    api.create({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "widgets.example.com" },
      spec: {
        group: "example.com",
        scope: "Namespaced",
        names: { plural: "widgets", singular: "widget", kind: "Widget" },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: {
                  spec: {
                    type: "object",
                    properties: { size: { type: "integer" } },
                  },
                },
              },
            },
          },
        ],
      },
    });
    const w = (name: string): KubeObject => ({
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name, namespace: "default" },
      spec: { size: 1, colour: "red", bogus: true },
    });
    expect(
      thrown(() => api.create(w("a"), { fieldValidation: "Strict" })).status
        .message,
    ).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus", unknown field "spec.colour"',
    );
    const warnings: string[] = [];
    api.create(w("b"), { fieldValidation: "Warn", warnings });
    expect(warnings).toEqual([
      'unknown field "spec.bogus"',
      'unknown field "spec.colour"',
    ]);
    expect(api.get("widgets", "default", "b").spec).toEqual({ size: 1 });
    const e = thrown(() =>
      api.patch(
        "widgets",
        "default",
        "b",
        "merge",
        { spec: { extra: 1 } },
        { fieldValidation: "Strict" },
      ),
    );
    expect(e.status.code).toBe(422);
    expect(e.kubectlMessage()).toMatch(
      /^The request is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"example.com\/v1\\",.*\\"spec\\":\{\\"extra\\":1,\\"size\\":1\}\}": strict decoding error: unknown field "spec.extra"$/,
    );
  });

  it("Secret data is []byte: plain text fails with Go's base64 error, a number with the []uint8 type error", () => {
    const secret = (data: unknown): KubeObject => ({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s" },
      data: { password: data },
    });
    const api = newApi();
    expect(
      thrown(() => api.create(secret("hunter2"), { fieldValidation: "Strict" }))
        .status.message,
    ).toBe(
      'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4',
    );
    expect(findDecodeErrors(secret(12))?.typeError).toBe(
      "json: cannot unmarshal number into Go struct field Secret.data of type []uint8",
    );
    expect(findDecodeErrors(secret("aHVudGVyMg=="))?.typeError).toBeUndefined();
    expect([
      base64CorruptAt("YQ=="),
      base64CorruptAt("YQ"),
      base64CorruptAt("YQ="),
      base64CorruptAt("YWJj\nZGVm"),
    ]).toEqual([undefined, 0, 3, undefined]);
  });

  it("named string types and resource lists print their Go type names", () => {
    expect(
      findDecodeErrors(pod("p", { imagePullPolicy: true }))?.typeError,
    ).toBe(
      "json: cannot unmarshal bool into Go struct field Container.spec.containers.imagePullPolicy of type v1.PullPolicy",
    );
    expect(
      findDecodeErrors(pod("p", { resources: { limits: "1" } }))?.typeError,
    ).toBe(
      "json: cannot unmarshal string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList",
    );
    expect(findDecodeErrors({ ...pod("p"), spec: "x" })?.typeError).toBe(
      "json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec",
    );
  });

  it("update (PUT) decodes the body like create", () => {
    const api = newApi();
    const cm = api.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", namespace: "default" },
      data: { a: "1" },
    });
    expect(
      thrown(() =>
        api.update({ ...cm, data: { a: 2 } } as KubeObject, {
          fieldValidation: "Strict",
        }),
      ).status.message,
    ).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    );
    expect(
      thrown(() =>
        api.update({ ...cm, extra: true } as KubeObject, {
          fieldValidation: "Strict",
        }),
      ).status.message,
    ).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "extra"',
    );
    expect(api.get("configmaps", "default", "c").data).toEqual({ a: "1" });
  });
});
