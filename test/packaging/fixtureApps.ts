import { type ChildProcess, spawn } from "node:child_process";
import { afterAll } from "vitest";

/** A fixture app that is listening: the lines it printed, and its two URLs (the first line). */
export interface Started {
  readonly lines: ReadonlyArray<string>;
  readonly classic: string;
  readonly effect: string;
}

/**
 * Runs fixture apps as node processes, each until it has printed `lines` lines, the first
 * `listening <url> [<url>]`, and kills every one of them after the file's tests.
 */
export const fixtureApps = () => {
  const children: Array<ChildProcess> = [];
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
  });
  return (
    file: string,
    lines: number,
    options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
  ) =>
    new Promise<Started>((resolve, reject) => {
      const child = spawn(process.execPath, [file], {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let stdout = "";
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const printed = stdout.split("\n").slice(0, -1);
        if (printed.length < lines) return;
        const [classic = "", effect = ""] = (printed[0] ?? "").split(" ").slice(1);
        resolve({ lines: printed, classic, effect });
      });
      child.once("exit", (code) => reject(new Error(`${file} exited (${code}): ${stderr}`)));
    });
};

/** A GET's status and JSON body. */
export const getJson = async (url: string) => {
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, body: await response.json() };
};

/**
 * Runs apps that print nothing as node processes, each until `url` answers 200 (polled), and
 * kills every one of them after the file's tests.
 */
export const servingApps = () => {
  const children: Array<ChildProcess> = [];
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
  });
  return async (
    file: string,
    url: string,
    options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
  ): Promise<void> => {
    const child = spawn(process.execPath, [file], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    for (let attempt = 0; attempt < 200; attempt++) {
      if (child.exitCode !== null) throw new Error(`${file} exited (${child.exitCode}): ${stderr}`);
      const status = await fetch(url).then(
        async (response) => {
          await response.body?.cancel();
          return response.status;
        },
        () => 0,
      );
      if (status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${file} did not answer 200 at ${url} within 20 s: ${stderr}`);
  };
};
