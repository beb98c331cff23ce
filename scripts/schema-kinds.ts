/**
 * The kinds the simulated kube-apiserver serves (src/engine/api/registry.ts `BUILTIN_TYPES`),
 * each exported under its own name from the `kubernetes-types` package (v1.30.0, generated from
 * the Kubernetes OpenAPI). scripts/gen-schemas.mjs hands this file to ts-json-schema-generator,
 * which writes one JSON Schema per kind into src/ui/editor/schemas/.
 * src/ui/editor/schemas.test.ts checks that every served kind has its schema here.
 */
export type { ComponentStatus, ConfigMap, Endpoints, Event, Namespace, Node, PersistentVolumeClaim, PersistentVolume, Pod, Secret, ServiceAccount, Service } from 'kubernetes-types/core/v1';
export type { ValidatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1';
export type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1';
export type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
export type { CronJob, Job } from 'kubernetes-types/batch/v1';
export type { Lease } from 'kubernetes-types/coordination/v1';
export type { EndpointSlice } from 'kubernetes-types/discovery/v1';
export type { IngressClass, Ingress } from 'kubernetes-types/networking/v1';
export type { ClusterRoleBinding, ClusterRole, RoleBinding, Role } from 'kubernetes-types/rbac/v1';
export type { PriorityClass } from 'kubernetes-types/scheduling/v1';
export type { StorageClass } from 'kubernetes-types/storage/v1';
