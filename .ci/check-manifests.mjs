// Checks deploy/kubernetes/*.yaml without a cluster: every object against the Kubernetes OpenAPI
// schemas (npm kubernetes-models: types, required fields, enums; it does not reject unknown fields),
// then what ties them together (the injector count, the image, the Service the injectors call, the
// results claim, the START_AT placeholder). With --commands it prints, as JSON, what the smoke test
// (deploy/image/smoke.sh) runs: each container's environment and args.
//   NODE_PATH=<dir with kubernetes-models and yaml> node .ci/check-manifests.mjs [--commands]
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "deploy", "kubernetes");
// ESM does not read NODE_PATH: resolve the packages from it by hand.
const require = createRequire(join(process.env.NODE_PATH || root, "noop.js"));
const { parseAllDocuments } = require("yaml");
// kubernetes-models exports ESM only: import its files by path.
const models = dirname(require.resolve("kubernetes-models/package.json"));

const errors = [];
const objects = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort()) {
  for (const doc of parseAllDocuments(readFileSync(join(dir, file), "utf8"))) {
    if (doc.errors.length) {
      errors.push(`${file}: ${doc.errors[0].message}`);
      continue;
    }
    const obj = doc.toJS();
    if (obj) objects.push({ file, obj });
  }
}
for (const { file, obj } of objects) {
  const [group, version] = obj.apiVersion.includes("/") ? obj.apiVersion.split("/") : [null, obj.apiVersion];
  const module = join(models, ...(group ? [group] : []), version, `${obj.kind}.js`);
  let Model;
  try {
    Model = (await import(pathToFileURL(module).href))[obj.kind];
  } catch (e) {
    errors.push(`${file}: no schema for ${obj.apiVersion} ${obj.kind}`);
    continue;
  }
  try {
    new Model(obj).validate();
  } catch (e) {
    errors.push(`${file}: ${obj.kind} ${obj.metadata?.name}: ${e.message.split("\n")[0]}`);
  }
}

const find = (kind, name) => objects.map((o) => o.obj).find((o) => o.kind === kind && o.metadata.name === name);
const need = (cond, message) => { if (!cond) errors.push(message); };
const settings = find("ConfigMap", "rpc-load-settings");
const injectors = find("Job", "rpc-injectors");
const merge = find("Job", "rpc-merge");
const server = find("Deployment", "dubbo-echo");
need(settings && injectors && merge && server, "missing one of ConfigMap rpc-load-settings, Job rpc-injectors, Job rpc-merge, Deployment dubbo-echo");
if (errors.length === 0) {
  const n = Number(settings.data.INJECTORS);
  need(injectors.spec.completionMode === "Indexed", "rpc-injectors must be an Indexed Job (the index names the injector)");
  need(injectors.spec.completions === n && injectors.spec.parallelism === n,
    `rpc-injectors: completions ${injectors.spec.completions} and parallelism ${injectors.spec.parallelism} must equal INJECTORS ${n}: all start together`);
  const pom = readFileSync(join(root, "pom.xml"), "utf8");
  const image = /<image\.name>([^<]+)<\/image\.name>/.exec(pom)[1];
  for (const { obj } of objects) {
    const pod = obj.spec?.template?.spec ?? (obj.kind === "Pod" ? obj.spec : null);
    for (const c of pod?.containers ?? []) {
      if (c.image.startsWith("rpc-load-lab")) need(c.image === image, `${obj.metadata.name}: image ${c.image}, the pom builds ${image}`);
    }
  }
  const injector = injectors.spec.template.spec.containers[0];
  const args = injector.args.join(" ");
  need(args.includes("-Dinjector=$(INJECTOR_INDEX)/$(INJECTORS)"), "rpc-injectors: -Dinjector must come from the completion index and INJECTORS");
  need(injector.env.some((e) => e.name === "START_AT" && e.value === "${START_AT}"), "rpc-injectors: START_AT must be the ${START_AT} placeholder");
  need(injector.env.some((e) => e.name === "INJECTOR_INDEX" && e.valueFrom?.fieldRef?.fieldPath?.includes("job-completion-index")),
    "rpc-injectors: INJECTOR_INDEX must come from the completion index annotation");
  const target = /-Dtarget=([^: ]+):(\d+)/.exec(args);
  const service = target && find("Service", target[1]);
  need(service && service.spec.ports.some((p) => p.port === Number(target[2])), `rpc-injectors: -Dtarget names no Service port (${target && target[0]})`);
  need(service && Object.entries(service.spec.selector).every(([k, v]) => server.spec.template.metadata.labels[k] === v),
    "Service dubbo-echo does not select the server's pods");
  // Pods annotated for Prometheus serve their metrics where the annotation says, on the pod's address.
  for (const { obj } of objects) {
    const template = obj.spec?.template;
    const notes = template?.metadata?.annotations ?? {};
    if (notes["prometheus.io/scrape"] !== "true") continue;
    const port = Number(notes["prometheus.io/port"]);
    const c = template.spec.containers[0];
    const argv = c.args.join(" ");
    need((c.ports ?? []).some((p) => p.containerPort === port), `${obj.metadata.name}: no container port ${port} to scrape`);
    need(argv.includes(`-Dmetrics.port=${port}`) || argv.includes(`--metrics-port ${port}`),
      `${obj.metadata.name}: scraped on ${port}, but its args serve no metrics there`);
    need(argv.includes("-Dmetrics.host=0.0.0.0") || argv.includes("--host 0.0.0.0"),
      `${obj.metadata.name}: its metrics would bind loopback, out of Prometheus' reach`);
  }
  need([server, injectors].every((o) => o.spec.template.metadata.annotations?.["prometheus.io/scrape"] === "true"),
    "the server and the injectors must be annotated for scraping");
  const claims = [injectors, merge].map((j) => j.spec.template.spec.volumes.find((v) => v.persistentVolumeClaim)?.persistentVolumeClaim.claimName);
  need(claims.every((c) => c && find("PersistentVolumeClaim", c)), `the injectors and the merge must share an existing claim: ${claims}`);
  need(merge.spec.template.spec.containers[0].args.includes("-Dinjectors=$(INJECTORS)"), "rpc-merge must expect INJECTORS runs");
  const mergeRuns = merge.spec.template.spec.containers[0].args.find((a) => a.startsWith("-Druns="));
  need(mergeRuns === "-Druns=/results/injector-*" && args.includes("-rf /results/injector-$(INJECTOR_INDEX)"),
    "rpc-merge's -Druns must match the injectors' -rf folders");
}
if (errors.length) {
  errors.forEach((e) => console.error("error: " + e));
  process.exit(1);
}
if (process.argv.includes("--commands")) {
  const container = (o) => (o.spec.template?.spec ?? o.spec).containers[0];
  console.log(JSON.stringify({
    settings: settings.data,
    server: container(server).args,
    injector: container(injectors).args,
    merge: container(merge).args,
  }));
} else {
  console.log(`kubernetes manifests OK: ${objects.length} objects in deploy/kubernetes checked against the Kubernetes schemas (kubernetes-models)`);
}
