import { it } from 'vitest';
import { newTestCluster } from '../testing/cluster';
it('debug', () => {
  const c = newTestCluster({ controllers: ['node-lifecycle'] });
  c.apply(`
apiVersion: v1
kind: Pod
metadata: {name: web-a}
spec:
  nodeName: worker-2
  containers: [{name: nginx, image: nginx:1.14.2}]
`);
  c.run(30_000);
  c.kubelet.stopNode('worker-2');
  c.run(70_000);
  console.log(JSON.stringify(c.api.get('nodes', undefined, 'worker-2').spec, null, 1));
  console.log(JSON.stringify(c.pods().map(p=>p.status.conditions), null, 1));
  console.log(c.events.map(e=>`${e.time} ${e.component} ${e.reason} ${e.involvedObject.kind}/${e.involvedObject.name} ${e.message}`).join('\n'));
  console.log(c.trace.list().map(e=>`${e.time} ${e.component} ${e.message}`).join('\n'));
});
