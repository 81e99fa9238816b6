// Checks deploy/grafana/*.json against Grafana's own dashboard schema: the TypeScript types Grafana
// publishes as @grafana/schema (generated from its CUE schema). Each dashboard becomes a typed
// constant and TypeScript's compiler checks it: a field of the wrong type or one the schema does not
// have (excess property) fails. Its PromQL is checked against a real Prometheus by LiveMetricsIT.
//   node .ci/check-dashboard.mjs <dir with node_modules holding typescript and @grafana/schema>
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const lint = process.argv[2];
const dir = join(root, "deploy", "grafana");
const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
if (files.length === 0) {
  console.error("error: no dashboard in deploy/grafana");
  process.exit(1);
}
const checked = [];
for (const file of files) {
  const dashboard = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const ts = join(lint, "dashboard-" + file.replace(/\W/g, "_") + ".ts");
  writeFileSync(ts, 'import type { Dashboard } from "@grafana/schema";\n'
    + "export const dashboard: Dashboard = " + JSON.stringify(dashboard, null, 2) + ";\n");
  checked.push(ts);
  const ids = dashboard.panels.map((p) => p.id);
  if (new Set(ids).size !== ids.length) {
    console.error(`error: ${file}: panel ids repeat: ${ids}`);
    process.exit(1);
  }
}
try {
  execFileSync(join(lint, "node_modules", ".bin", "tsc"), ["--noEmit", "--strict", "--target", "es2022",
    "--module", "nodenext", "--moduleResolution", "nodenext", ...checked], { cwd: lint, stdio: "inherit" });
} catch (e) {
  console.error("error: a dashboard in deploy/grafana does not fit Grafana's schema (@grafana/schema), see above");
  process.exit(1);
}
console.log(`grafana dashboards OK: ${files.join(", ")} checked against @grafana/schema's Dashboard type`);
