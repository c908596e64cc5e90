// Reads the SARIF logs written by `Sarif.Multitool validate -o ...` and fails when any of them
// reports an error (the multitool exits with 0 even then). Warnings and notes are printed.
"use strict";
const fs = require("fs");

let errors = 0;
let checked = 0;
for (const file of process.argv.slice(2)) {
  const log = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!Array.isArray(log.runs) || log.runs.length === 0) {
    console.error(`${file}: not a validation log (no runs)`);
    process.exit(1);
  }
  for (const run of log.runs) {
    const rules = (run.tool && run.tool.driver && run.tool.driver.rules) || [];
    for (const result of run.results || []) {
      const level = result.level || "warning";
      const rule = rules[result.ruleIndex] || {};
      const template =
        (rule.messageStrings &&
          result.message &&
          result.message.id &&
          rule.messageStrings[result.message.id] &&
          rule.messageStrings[result.message.id].text) ||
        (result.message && result.message.text) ||
        "";
      const args = (result.message && result.message.arguments) || [];
      const text = template.replace(/\{(\d+)\}/g, (_, i) => args[Number(i)] ?? "");
      console.log(`${file}: ${level} ${result.ruleId}: ${text}`);
      if (level === "error") errors += 1;
    }
    for (const inv of run.invocations || []) {
      for (const n of inv.toolExecutionNotifications || []) {
        const level = n.level || "warning";
        console.log(`${file}: multitool ${level}: ${n.message && n.message.text}`);
        if (level === "error") errors += 1;
      }
    }
  }
  checked += 1;
}
console.log(`SARIF validation: ${checked} log(s) read, ${errors} error(s)`);
process.exit(errors === 0 && checked > 0 ? 0 : 1);
