// Type-checks every TypeScript code block of the docs, so they never drift from the API.
//
//   node scripts/check-docs.mjs                 README.md and docs/**/*.md
//   node scripts/check-docs.mjs a.md b.md       those files only
//   node scripts/check-docs.mjs --out DIR ...   generated modules in DIR (default below)
//
// Each ```ts / ```typescript block is written as a module of its own (`<file>_L<line>.ts`) into
// a git-ignored folder two levels below the repository root, so `effect-strata`, `effect-strata/oauth`, ...
// resolve to the sources through the package's "strata-source" export condition (as the
// examples and tests import them), and a relative import reads as from `test/<folder>/`
// (`../../examples/...`). They are compiled together with `tsc` under the repository's
// tsconfig (strict, decorators and their metadata), minus the unused-locals checks: a block
// must be a complete module, imports included. An error is printed as `<file.md>:<line>`.
//
// A block that cannot be a complete module opts out with a reason in its info string:
// ```ts ignore: <why>. The run counts and lists the opt-outs; an opt-out without a reason
// fails. Exit code: 0 when every block compiles, 1 otherwise.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_OUT = "test-artifacts/docs-check";

/** The markdown files checked when none are named: README.md and docs/ (recursively). */
const defaultFiles = () => {
  const walk = (dir) =>
    readdirSync(join(root, dir))
      .sort()
      .flatMap((name) => {
        const path = join(dir, name);
        if (statSync(join(root, path)).isDirectory()) return walk(path);
        return name.endsWith(".md") ? [path] : [];
      });
  return ["README.md", ...walk("docs")];
};

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/**
 * The code blocks of one markdown file: `{ lang, info, line, code }`, where `line` is the
 * 1-based line of the opening fence.
 */
const extractBlocks = (text) => {
  const lines = text.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (open === null) continue;
    const [, indent, fence, info] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close?.[2].startsWith(fence) && close[3].trim() === "") break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    const lang = info.trim().split(/\s+/)[0] ?? "";
    blocks.push({ lang, info: info.trim(), line: i + 1, code: body.join("\n") });
    i = j;
  }
  return blocks;
};

/** `ts ignore: <reason>` -> the reason; `""` for an opt-out without one; undefined otherwise. */
const optOutReason = (info) => {
  const match = /^\S+\s+ignore\b:?\s*(.*)$/.exec(info);
  return match === null ? undefined : match[1].trim();
};

const args = process.argv.slice(2);
let out = DEFAULT_OUT;
const named = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--out") out = args[++i];
  else named.push(args[i]);
}
const files = named.length > 0 ? named : defaultFiles();
const outDir = resolve(root, out);

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const modules = new Map(); // generated file name -> { file, line }
const optOuts = [];
const problems = []; // { file, line, text }
for (const file of files) {
  const text = readFileSync(resolve(root, file), "utf8");
  for (const block of extractBlocks(text)) {
    if (block.lang !== "ts" && block.lang !== "typescript") continue;
    const reason = optOutReason(block.info);
    if (reason !== undefined) {
      if (reason === "") {
        problems.push({
          file,
          line: block.line,
          text: `${file}:${block.line}: an opt-out needs a reason`,
        });
      } else optOuts.push(`${file}:${block.line}: ${reason}`);
      continue;
    }
    const name = `${relative(root, resolve(root, file)).replace(/[^A-Za-z0-9]+/g, "_")}_L${block.line}.ts`;
    writeFileSync(join(outDir, name), `${block.code}\n`);
    modules.set(name, { file, line: block.line });
  }
}

const tsconfig = {
  extends: relative(outDir, join(root, "tsconfig.json")),
  compilerOptions: {
    noEmit: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    moduleDetection: "force",
  },
  include: ["*.ts"],
};
writeFileSync(join(outDir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);

let output = "";
if (modules.size > 0) {
  try {
    execFileSync(
      join(root, "node_modules/.bin/tsc"),
      ["-p", join(outDir, "tsconfig.json"), "--pretty", "false"],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
  } catch (error) {
    output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
    if (output.trim() === "") throw error;
  }
}

// `<dir>/<module>.ts(12,5): error TS2304: ...` -> `<file.md>:<fence line + 12>:5: error TS2304: ...`,
// with the lines that continue a message kept under it.
const ERROR = /^(.*?)\((\d+),(\d+)\): (.*)$/;
let errors = 0;
for (const line of output.split("\n")) {
  if (line.trim() === "") continue;
  const match = ERROR.exec(line);
  const origin = match === null ? undefined : modules.get(match[1].split(/[\\/]/).pop());
  if (origin !== undefined) {
    errors++;
    const at = origin.line + Number(match[2]);
    problems.push({
      file: origin.file,
      line: at,
      text: `${origin.file}:${at}:${match[3]}: ${match[4]}`,
    });
  } else if (/^\s/.test(line) && problems.length > 0) {
    problems[problems.length - 1].text += `\n  ${line.trim()}`;
  } else {
    errors++;
    problems.push({ file: "", line: 0, text: line });
  }
}
problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
console.log(
  `check-docs: ${plural(modules.size, "TypeScript block")} type-checked in ` +
    `${plural(files.length, "file")}, ${optOuts.length} opted out${optOuts.length > 0 ? ":" : ""}`,
);
for (const optOut of optOuts) console.log(`  ${optOut}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem.text);
  console.error(`check-docs: ${problems.length} problems (${errors} from tsc)`);
  process.exitCode = 1;
}
