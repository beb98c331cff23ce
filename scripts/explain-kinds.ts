/**
 * The kinds `kubectl explain` documents: every kind the simulated kube-apiserver serves
 * (src/engine/api/registry.ts) that `kubernetes-types` 1.30.0 has at the served version, each
 * exported under its own name. scripts/gen-explain.mjs hands this file to
 * ts-json-schema-generator. Left out: kinds whose served version is newer than kubernetes-types
 * 1.30 (resource.k8s.io/v1, networking IPAddress/ServiceCIDR v1, VolumeAttributesClass v1) and
 * kinds whose type names clash with another group's (events.k8s.io Event, FlowSchema's Subject,
 * APIService's ServiceReference), which ts-json-schema-generator cannot tell apart by name.
 */
export type { Binding, ComponentStatus, ConfigMap, Endpoints, Event, LimitRange, Namespace, Node, PersistentVolumeClaim, PersistentVolume, Pod, PodTemplate, ReplicationController, ResourceQuota, Secret, ServiceAccount, Service } from 'kubernetes-types/core/v1';
export type { MutatingWebhookConfiguration, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, ValidatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1';
export type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1';
export type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
export type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
export type { CronJob, Job } from 'kubernetes-types/batch/v1';
export type { CertificateSigningRequest } from 'kubernetes-types/certificates/v1';
export type { Lease } from 'kubernetes-types/coordination/v1';
export type { EndpointSlice } from 'kubernetes-types/discovery/v1';
export type { IngressClass, Ingress, NetworkPolicy } from 'kubernetes-types/networking/v1';
export type { RuntimeClass } from 'kubernetes-types/node/v1';
export type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
export type { ClusterRoleBinding, ClusterRole, RoleBinding, Role } from 'kubernetes-types/rbac/v1';
export type { PriorityClass } from 'kubernetes-types/scheduling/v1';
export type { CSIDriver, CSINode, CSIStorageCapacity, StorageClass, VolumeAttachment } from 'kubernetes-types/storage/v1';
