// What the rendered objects of one environment promise, across its service charts; deploy/helm/check.sh
// runs it on the manifests of `helm template` (each service chart as its own release):
//   node deploy/helm/rendered-promises.mjs <dir of <service>-<environment>.yaml> <environment> <service>...
// Prints one line per promise kept; exits 1 naming every one broken:
//   1. the Deployment, Service, PDB and NetworkPolicy select the server pods (component: server), and
//      no hook Job's pods
//   2. each service's ServiceAccount mounts no token, nor does any pod
//   3. a startup probe, a preStop sleep within the grace period, zone and node spreading
//   4. every pod (server, each Job's) under exactly one Ingress+Egress NetworkPolicy; no port open to
//      anyone but the gateway's public one; admin, metrics and the dashboard's (the ingress
//      controller's) from named namespaces alone
//   5. each *_GRPC_ADDRESS of a ConfigMap (not the service's own listener) is an egress rule to that
//      service's server pods, and each gRPC port admits exactly the services configured to call it
//   6. DNS, and the ports of KAFKA_BROKERS, REDIS_URL, S3_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT (set everywhere)
//   7. notification's webhooks: 0.0.0.0/0 except the private ranges, on 443 alone (https only)
//   8. the topics Job makes the topics the Deployment declares, before the migrations
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const [dir, environment, ...services] = process.argv.slice(2);
const objects = Object.fromEntries(
  services.map((s) => [
    s,
    parseAllDocuments(readFileSync(`${dir}/${s}-${environment}.yaml`, 'utf8'))
      .map((d) => d.toJS())
      .filter(Boolean),
  ]),
);
const problems = [];
const lines = [];
const problem = (service, text) => problems.push(`${service} × ${environment}: ${text}`);
const matches = (selector, labels) => Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
const find = (service, kind, name = service) =>
  objects[service].find((o) => o.kind === kind && o.metadata.name === name);
const config = (service) => find(service, 'ConfigMap', `${service}-env`)?.data ?? {};
const serverPolicy = (service) => find(service, 'NetworkPolicy');
const portOf = (url, fallbacks = { 'https:': 443, 'http:': 80, 'redis:': 6379 }) => {
  const u = new URL(url);
  return Number(u.port || fallbacks[u.protocol]);
};
// Every egress port (number) of a policy, and the egress rules allowing one.
const egressTo = (policy, port) =>
  (policy?.spec.egress ?? []).filter((rule) => (rule.ports ?? []).some((p) => Number(p.port) === port));

for (const service of services) {
  const deployment = find(service, 'Deployment');
  if (!deployment) {
    problem(service, 'no Deployment');
    continue;
  }
  const pod = deployment.spec.template;
  const jobs = objects[service].filter((o) => o.kind === 'Job');
  // 1. selectors: the server pods alone
  const selectors = {
    Deployment: deployment.spec.selector.matchLabels,
    Service: find(service, 'Service')?.spec.selector,
    PodDisruptionBudget: find(service, 'PodDisruptionBudget')?.spec.selector.matchLabels,
    NetworkPolicy: serverPolicy(service)?.spec.podSelector.matchLabels,
  };
  for (const [kind, selector] of Object.entries(selectors)) {
    if (!selector) problem(service, `no ${kind} selecting the server pods`);
    else if (selector['app.kubernetes.io/component'] !== 'server')
      problem(service, `the ${kind} selector has no component: server`);
    else if (!matches(selector, pod.metadata.labels))
      problem(service, `the ${kind} selector does not select the Deployment's pods`);
    for (const job of jobs) {
      if (selector && matches(selector, job.spec.template.metadata.labels))
        problem(service, `the pods of Job ${job.metadata.name} match the ${kind} selector`);
    }
  }
  const components = jobs.map((j) => j.spec.template.metadata.labels['app.kubernetes.io/component']).join(', ');
  lines.push(
    `selectors ${service} × ${environment}: Deployment, Service, PDB and NetworkPolicy select component=server; no Job's pods (${components || 'no Job'}) match them`,
  );
  // 2. the ServiceAccount, no token anywhere
  const account = objects[service].find((o) => o.kind === 'ServiceAccount');
  if (!account) problem(service, 'no ServiceAccount');
  else if (account.automountServiceAccountToken !== false) problem(service, 'its ServiceAccount mounts a token');
  if (pod.spec.serviceAccountName !== account?.metadata.name)
    problem(service, `the server pods use ServiceAccount ${pod.spec.serviceAccountName}, not the chart's`);
  for (const template of [pod, ...jobs.map((j) => j.spec.template)])
    if (template.spec.automountServiceAccountToken !== false) problem(service, 'a pod mounts a ServiceAccount token');
  // 3. start and stop
  const container = pod.spec.containers[0];
  const sleep = container.lifecycle?.preStop?.sleep?.seconds;
  if (!container.startupProbe) problem(service, 'no startupProbe');
  if (!(sleep > 0) || sleep >= pod.spec.terminationGracePeriodSeconds)
    problem(
      service,
      `preStop sleep ${sleep} s is not within terminationGracePeriodSeconds ${pod.spec.terminationGracePeriodSeconds}`,
    );
  const spreadKeys = (pod.spec.topologySpreadConstraints ?? [])
    .map((c) => c.topologyKey)
    .sort()
    .join(',');
  if (spreadKeys !== 'kubernetes.io/hostname,topology.kubernetes.io/zone')
    problem(service, `spread over ${spreadKeys || 'nothing'}`);
  lines.push(
    `pods ${service} × ${environment}: ServiceAccount ${account?.metadata.name} (no token), startupProbe, preStop sleep ${sleep} s < grace ${pod.spec.terminationGracePeriodSeconds} s, spread over zone and node`,
  );
  // 4. default deny: the server pods and every Job's pods
  const policies = objects[service].filter((o) => o.kind === 'NetworkPolicy');
  for (const template of [pod, ...jobs.map((j) => j.spec.template)]) {
    const own = policies.filter((p) => matches(p.spec.podSelector.matchLabels, template.metadata.labels));
    if (own.length !== 1 || own[0].spec.policyTypes.join(',') !== 'Ingress,Egress')
      problem(
        service,
        `pods ${JSON.stringify(template.metadata.labels['app.kubernetes.io/component'])} are not selected by exactly one Ingress+Egress NetworkPolicy`,
      );
  }
  for (const rule of serverPolicy(service)?.spec.ingress ?? []) {
    const ports = (rule.ports ?? []).map((p) => p.port);
    if (!rule.from && !(service === 'gateway' && ports.join() === 'public'))
      problem(service, `ingress to ${ports} from anywhere`);
    if (
      ports.some((p) => p === 'admin' || p === 'metrics' || (service === 'dashboard' && p === 'http')) &&
      (rule.from ?? [{}]).some(
        (peer) => !peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] || peer.ipBlock,
      )
    )
      problem(service, `ingress to ${ports} from something else than named namespaces`);
  }
  for (const job of jobs) {
    const own = policies.find((p) => matches(p.spec.podSelector.matchLabels, job.spec.template.metadata.labels));
    if (own && (own.spec.ingress ?? []).length > 0)
      problem(service, `Job ${job.metadata.name}'s pods accept connections`);
  }
}

// 5. gRPC: each *_GRPC_ADDRESS a service is configured with (not its own listener) is an egress
// rule to that service's server pods and port, and each gRPC port admits exactly those callers.
const callers = {};
for (const service of services) {
  for (const [name, value] of Object.entries(config(service))) {
    if (!/_GRPC_ADDRESS$/.test(name) || value.startsWith('0.0.0.0:')) continue;
    const [host, port] = value.split(':');
    (callers[host] ??= { port: Number(port), from: [] }).from.push(service);
    const allowed = egressTo(serverPolicy(service), Number(port)).some((rule) =>
      (rule.to ?? []).some(
        (peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === host && !peer.namespaceSelector,
      ),
    );
    if (!allowed) problem(service, `${name}=${value}, but no egress rule to ${host}'s pods on ${port}`);
  }
}
for (const service of services) {
  const grpc = find(service, 'Deployment')?.spec.template.spec.containers[0].ports.find((p) => p.name === 'grpc');
  if (!grpc) continue;
  const expected = (callers[service]?.from ?? []).sort().join(', ');
  const rules = (serverPolicy(service)?.spec.ingress ?? []).filter((r) =>
    (r.ports ?? []).some((p) => p.port === 'grpc' || Number(p.port) === grpc.containerPort),
  );
  const admitted = rules.flatMap((r) =>
    (r.from ?? [{ anything: true }]).map(
      (peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] ?? JSON.stringify(peer),
    ),
  );
  if (admitted.sort().join(', ') !== expected)
    problem(
      service,
      `its gRPC port admits [${admitted.join(', ')}], but its callers (by their *_GRPC_ADDRESS) are [${expected}]`,
    );
  lines.push(`grpc flows ${environment}: ${service}:${grpc.containerPort} ← ${expected || 'nobody'}, and nothing else`);
}

// 6. each dependency's port is reachable; traces have a collector
for (const service of services) {
  const data = config(service);
  const needed = [];
  for (const broker of (data.KAFKA_BROKERS ?? '').split(',').filter(Boolean))
    needed.push(['KAFKA_BROKERS', Number(broker.trim().split(':')[1])]);
  if (data.REDIS_URL) needed.push(['REDIS_URL', portOf(data.REDIS_URL)]);
  if (data.S3_ENDPOINT) needed.push(['S3_ENDPOINT', portOf(data.S3_ENDPOINT)]);
  if (!data.OTEL_EXPORTER_OTLP_ENDPOINT) problem(service, 'no OTEL_EXPORTER_OTLP_ENDPOINT');
  else needed.push(['OTEL_EXPORTER_OTLP_ENDPOINT', portOf(data.OTEL_EXPORTER_OTLP_ENDPOINT)]);
  const dns = egressTo(serverPolicy(service), 53).filter((r) =>
    (r.to ?? []).some((p) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'kube-system'),
  );
  if (dns.length === 0) problem(service, 'no egress to DNS in kube-system');
  for (const [variable, port] of needed)
    if (egressTo(serverPolicy(service), port).length === 0)
      problem(service, `${variable} needs port ${port}, which no egress rule allows`);
  lines.push(
    `egress ${service} × ${environment}: DNS, and the ports of ${needed.map(([v, p]) => `${v} (${p})`).join(', ')}`,
  );
}

// 7. webhooks: public addresses alone, https alone
const privateRanges = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '100.64.0.0/10',
];
const webhookRules = (serverPolicy('notification')?.spec.egress ?? []).filter((r) =>
  (r.to ?? []).some((p) => p.ipBlock?.cidr === '0.0.0.0/0'),
);
if (webhookRules.length === 0) problem('notification', 'no egress rule for webhooks to public addresses');
for (const rule of webhookRules) {
  const v4 = rule.to.find((p) => p.ipBlock?.cidr === '0.0.0.0/0');
  const missing = privateRanges.filter((r) => !(v4.ipBlock.except ?? []).includes(r));
  if (missing.length) problem('notification', `webhook egress does not exclude ${missing.join(', ')}`);
  if (rule.to.some((p) => !p.ipBlock)) problem('notification', 'webhook egress also allows pods');
  const ports = rule.ports.map((p) => Number(p.port)).join(',');
  if (ports !== '443')
    problem('notification', `webhook egress on ports ${ports}: https (443) alone, the service refuses http URLs`);
}
lines.push(`webhooks ${environment}: notification reaches 0.0.0.0/0 on 443 alone, except ${privateRanges.join(', ')}`);

// 8. the topics Job creates what the Deployment says the service publishes to, before the migrations
for (const service of services) {
  const declared = find(service, 'Deployment')?.metadata.annotations?.['corridor.dev/kafka-topics'];
  const job = objects[service].find(
    (o) => o.kind === 'Job' && o.spec.template.metadata.labels['app.kubernetes.io/component'] === 'topics',
  );
  if (!declared) {
    if (job) problem(service, 'a topics Job, but no declared topic');
    continue;
  }
  if (!job) {
    problem(service, `declares ${declared} but has no topics Job`);
    continue;
  }
  const container = job.spec.template.spec.containers[0];
  const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
  const args = container.command.slice(container.command.indexOf('dist/topics.js') + 1);
  const named = args.map((a) => `${env.KAFKA_TOPIC_PREFIX}${a.split(':')[0]}`).join(',');
  if (named !== declared) problem(service, `the topics Job makes ${named}, the Deployment declares ${declared}`);
  if (env.KAFKA_BROKERS !== config(service).KAFKA_BROKERS)
    problem(service, "the topics Job's KAFKA_BROKERS are not the service's");
  const migrate = objects[service].find((o) => o.kind === 'Job' && o !== job);
  const weight = (j) => Number(j.metadata.annotations['helm.sh/hook-weight']);
  if (migrate && !(weight(job) < weight(migrate)))
    problem(service, 'the topics Job does not run before the migrations');
  lines.push(
    `topics ${service} × ${environment}: the pre-install/pre-upgrade Job ensures ${args.join(' ')} (prefix "${env.KAFKA_TOPIC_PREFIX}") before the migrations`,
  );
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exitCode = 1;
} else {
  console.log(lines.join('\n'));
}
