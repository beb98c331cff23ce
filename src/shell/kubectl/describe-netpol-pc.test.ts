import { describe, expect, it } from 'vitest';
import { bench } from './testing';

// staging/src/k8s.io/kubectl/pkg/describe/describe.go describeNetworkPolicy /
// describeNetworkPolicySpec / printNetworkPolicySpecIngressFrom / printNetworkPolicySpecEgressTo:
// the spec in words, not the generic describer's field dump.

describe('kubectl describe networkpolicy', () => {
  it('a default-deny policy: all pods selected, isolated for ingress, egress untouched', () => {
    const b = bench();
    expect(b.run('kubectl apply -f -', { stdin: 'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n' }).code).toBe(0);
    const out = b.run('kubectl describe networkpolicy deny').stdout;
    expect(out).toMatch(/^Name: {9}deny\nNamespace: {4}default\nCreated on: {3}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\nLabels: {7}<none>\nAnnotations: {2}<none>\n/);
    expect(out.slice(out.indexOf('Spec:'))).toBe(`Spec:
  PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)
  Allowing ingress traffic:
    <none> (Selected pods are isolated for ingress connectivity)
  Not affecting egress traffic
  Policy Types: Ingress
`);
  });

  it('rules: ports (TCP by default, ranges), peers, ipBlocks, rule separators; policyTypes defaulted by the API', () => {
    const b = bench();
    const yaml = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-web
spec:
  podSelector:
    matchLabels: {app: catalog}
  ingress:
  - from:
    - podSelector: {matchLabels: {app: web}}
    - namespaceSelector: {matchLabels: {team: a}}
      podSelector: {matchLabels: {app: x}}
    ports:
    - port: 8080
  - from:
    - ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}
  egress:
  - to:
    - podSelector: {matchLabels: {app: postgres}}
    ports:
    - port: 5432
      protocol: TCP
      endPort: 5440
`;
    expect(b.run('kubectl apply -f -', { stdin: yaml }).code).toBe(0);
    const out = b.run('kubectl describe netpol allow-web').stdout;
    expect(out.slice(out.indexOf('Spec:'))).toBe(`Spec:
  PodSelector:     app=catalog
  Allowing ingress traffic:
    To Port: 8080/TCP
    From:
      PodSelector: app=web
    From:
      NamespaceSelector: team=a
      PodSelector: app=x
    ----------
    To Port: <any> (traffic allowed to all ports)
    From:
      IPBlock:
        CIDR: 10.0.0.0/8
        Except: 10.1.0.0/16
  Allowing egress traffic:
    To Port Range: 5432-5440/TCP
    To:
      PodSelector: app=postgres
  Policy Types: Ingress, Egress
`);
  });
});

// describe.go describePriorityClass: its own layout (not the generic field dump).
describe('kubectl describe priorityclass', () => {
  it('value, global default, preemption policy, description, annotations, events', () => {
    const b = bench();
    expect(b.run('kubectl create priorityclass high --value=1000 --description=hi').code).toBe(0);
    expect(b.run('kubectl describe pc high').stdout).toBe(`Name:              high
Value:             1000
GlobalDefault:     false
PreemptionPolicy:  PreemptLowerPriority
Description:       hi
Annotations:       <none>
Events:            <none>
`);
  });
});
