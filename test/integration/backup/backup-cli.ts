import { spawn } from "node:child_process";
import path from "node:path";

/** The compiled command-line tools of src/app/backup (tests run from dist/test). */
const TOOLS = path.join(__dirname, "..", "..", "..", "src", "app", "backup");

/** Runs `npm run <tool>`'s script with `args` and `env`; resolves with its exit code and output. */
export function runTool(
  tool: "backup" | "restore" | "export" | "import",
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(TOOLS, `${tool}-cli.js`), ...args], {
      env: { ...process.env, CITYGRAPH_TOKEN: "", ADMIN_PASSWORD: "", DATA_DIR: "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
