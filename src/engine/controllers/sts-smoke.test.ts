import { it } from 'vitest';
import { newTestCluster } from '../testing/cluster';
import { TestBinder } from '../testing/testbinder';

it('smoke', () => {
  const c = newTestCluster({ controllers: ['statefulset'], scheduler: false });
  new TestBinder({ api: c.api, clock: c.clock }).start();
  c.apply(`
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: web
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "nginx:1.27"}]
`);
  c.run(60_000);
  for (const p of c.pods()) console.log(p.metadata.name, p.status.phase, p.spec.nodeName, JSON.stringify(p.metadata.labels), p.spec.hostname, p.spec.subdomain);
  console.log(JSON.stringify(c.api.get('statefulsets', 'default', 'web').status));
  console.log(c.api.list('controllerrevisions').items.map((r) => r.metadata.name + ' ' + r.revision));
  for (const e of c.events) console.log(e.time, e.component, e.reason, e.message);
  console.log(c.trace.list({ component: 'statefulset' }).map((t) => `${t.time} ${t.message}`).join('\n'));
});
