/**
 * PodObservedGenerationTracking (GA in Kubernetes 1.35, pkg/features/kube_features.go): a pod's
 * status and its conditions say which `metadata.generation` they were computed for. The API
 * server sets generation 1 at create and bumps it on a spec change (pod strategy
 * `updatePodGeneration`); the kubelet writes `status.observedGeneration` and each condition's
 * (`CalculatePodStatusObservedGeneration`, `CalculatePodConditionObservedGeneration`), the
 * scheduler its PodScheduled=False condition's.
 */
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story } from './storykit';

describe('pod observedGeneration', { timeout: 120_000 }, () => {
  it('the kubelet reports the generation it saw, and catches up after an image change', () => {
    const s = story({ files: bookshopFiles() });
    s.run('kubectl run one --image=nginx:1.27\nsleep 10\n');
    const gens = () => s.out(`kubectl get pod one -o jsonpath='{.metadata.generation} {.status.observedGeneration} {range .status.conditions[*]}{.type}={.observedGeneration} {end}'`).trimEnd();
    expect(gens()).toBe('1 1 PodReadyToStartContainers=1 Initialized=1 Ready=1 ContainersReady=1 PodScheduled=1');
    s.run('kubectl set image pod/one one=nginx:1.28\nsleep 15\n');
    expect(gens()).toBe('2 2 PodReadyToStartContainers=2 Initialized=2 Ready=2 ContainersReady=2 PodScheduled=2');
    // A pod the scheduler cannot place: its PodScheduled=False condition carries the generation.
    s.run(`kubectl run big --image=nginx:1.27 --overrides='{"spec":{"containers":[{"name":"big","image":"nginx:1.27","resources":{"requests":{"cpu":"100"}}}]}}'\nsleep 3\n`);
    expect(s.out(`kubectl get pod big -o jsonpath='{.status.observedGeneration}|{.status.conditions[0].type} {.status.conditions[0].status} {.status.conditions[0].observedGeneration}'`).trimEnd()).toBe('|PodScheduled False 1');
  });
});
