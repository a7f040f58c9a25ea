// Checks that src/ is built in layers that point one way (`npm run check:layers`, part of
// `npm test`). The layer map below is the one place it is declared; docs/layers.md describes it.
// Every import between src files counts, `import type`, re-exports
// and `import()` included: a type-only arrow still ties the two files together.
//
// It fails, printing the offending edges, on:
// - an upward import: a folder importing from a layer above its own;
// - a sideways import: two folders of the same layer, which must not know each other;
// - a file of a sealed folder imported from outside it other than through the folder's entry
//   (the server's inside has one entry, `server/internal/FastPath.ts`);
// - an import of a package's internal modules (`effect/internal/...`, `@effect/platform/internal/
//   ...`) outside the folders allowed to rely on private shapes;
// - a circle of imports among src files;
// - a folder that is in no layer.
// Files at the top of src/ (index.ts, the public entry) may import any layer.
//
// Usage: node scripts/check-layers.mjs [--root <dir>] (default: the repository's src/).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync } from "@swc/core";

/**
 * The layers, bottom first. A folder may import its own files and the layers below; the folders
 * of one layer must not import each other.
 */
export const LAYERS = [
  // Self-contained utilities: sealing and randomness, bounded in-process memory, sanitizers.
  { name: "utilities", folders: ["crypto", "memory", "sanitize"] },
  // Errors, HTTP primitives (request target, bodies, responses, headers), user code adapters.
  { name: "http", folders: ["http"] },
  // The server's inside: Strata's node server and router over @effect/platform, and the only
  // place that relies on Effect's private shapes. A folder of its own, below `server/`.
  { name: "server internals", folders: ["server/internal"] },
  // Dependency injection and the decorator metadata it reads (@Module, @Injectable, @Inject).
  { name: "di", folders: ["di"] },
  // Services built on DI alone: lifecycle (hooks, health, shutdown) and the Redis client.
  { name: "lifecycle", folders: ["lifecycle", "redis"] },
  // The request pipeline: guards, interceptors, filters, pipes' contract, validation, uploads.
  { name: "pipeline", folders: ["pipeline"] },
  // Built-in pipes.
  { name: "pipes", folders: ["pipes"] },
  // Middleware: CORS, CSRF, security headers, rate limit, logger, timeout, trust proxy.
  { name: "middleware", folders: ["middleware"] },
  // The classic face's route decorators (@Controller, @Get, @Body, @UseGuards, ...).
  { name: "decorators", folders: ["decorators"] },
  // StrataServer.serve: an app Layer served on the fast path.
  { name: "server", folders: ["server"] },
  // The controller compiler: controllers' scans (their decorators read once) to routes, and the
  // per-request runners of guards, interceptors, pipes, filters and SSE that only its routes call.
  { name: "compiler", folders: ["compiler"] },
  // The API description, built from the controllers' scans.
  { name: "openapi", folders: ["openapi"] },
  // The app compiler: StrataApp, StrataApp.layer, NestFactory.
  { name: "app", folders: ["app"] },
  // The Effect face's entry (`effect-strata/effect`): a namespace per module of the layers below.
  { name: "effect", folders: ["effect"] },
  // Feature modules, each over the app.
  { name: "session", folders: ["session"] },
  { name: "oauth", folders: ["oauth"] },
  { name: "accounts", folders: ["accounts", "devidp"] },
  { name: "testing", folders: ["testing"] },
];

/** Folders whose files are imported from outside only through one entry file. */
export const SEALED = { "server/internal": "server/internal/FastPath.ts" };

/** Folders allowed to import packages' internal modules (private shapes). */
export const PRIVATE_SHAPES = ["server/internal"];
const PRIVATE_IMPORT = /^(?:effect|@effect\/[^/]+)\/internal(?:\/|$)/;

const walk = (dir, out = []) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
};

/** Every module specifier in `code`, with whether it is needed only for types. */
const specifiers = (code, file) => {
  const found = [];
  const visit = (node) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (node === null || typeof node !== "object") return;
    switch (node.type) {
      case "ImportDeclaration":
        found.push({
          spec: node.source.value,
          typeOnly:
            node.typeOnly ||
            (node.specifiers.length > 0 && node.specifiers.every((s) => s.isTypeOnly)),
        });
        return;
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
        if (node.source) found.push({ spec: node.source.value, typeOnly: node.typeOnly === true });
        return;
      case "CallExpression":
        if (
          node.callee?.type === "Import" &&
          node.arguments[0]?.expression?.type === "StringLiteral"
        )
          found.push({ spec: node.arguments[0].expression.value, typeOnly: false });
        break;
      case "TsImportType":
        found.push({ spec: node.argument.value, typeOnly: true });
        return;
    }
    for (const key in node) if (key !== "span") visit(node[key]);
  };
  try {
    visit(parseSync(code, { syntax: "typescript", decorators: true }).body);
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  }
  return found;
};

/** The problems of the tree at `root`, as lines to print; none when it is layered. */
export const checkLayers = (root) => {
  const layerOf = new Map();
  LAYERS.forEach((layer, index) => {
    for (const folder of layer.folders) layerOf.set(folder, { index, name: layer.name });
  });
  const files = walk(root).map((file) => relative(root, file).split(sep).join("/"));
  const known = new Set(files);
  // A file's folder: the longest folder of the map its path starts with (`server/internal/` is a
  // layer of its own inside `server/`), else its first path segment.
  const nested = [...layerOf.keys()].filter((folder) => folder.includes("/"));
  const folderOf = (file) => {
    if (!file.includes("/")) return null;
    const inner = nested.find((folder) => file.startsWith(`${folder}/`));
    return inner ?? file.slice(0, file.indexOf("/"));
  };
  const problems = [];
  const graph = new Map(files.map((file) => [file, []]));

  for (const folder of new Set(files.map(folderOf))) {
    if (folder !== null && !layerOf.has(folder))
      problems.push(
        `folder ${folder}/ is in no layer: add it to LAYERS in scripts/check-layers.mjs`,
      );
  }

  for (const file of files) {
    const from = folderOf(file);
    for (const { spec, typeOnly } of specifiers(readFileSync(join(root, file), "utf8"), file)) {
      if (!spec.startsWith(".")) {
        if (PRIVATE_IMPORT.test(spec) && !PRIVATE_SHAPES.includes(from))
          problems.push(
            `private import: ${file} -> ${spec} (only ${PRIVATE_SHAPES.join(", ")}/ may)`,
          );
        continue;
      }
      const target = normalize(join(dirname(file), spec))
        .split(sep)
        .join("/")
        .replace(/\.js$/, ".ts");
      if (!known.has(target)) continue; // a non-TypeScript file (JSON, assets)
      graph.get(file).push(target);
      const to = folderOf(target);
      const kind = typeOnly ? " (type)" : "";
      if (from === null || from === to) continue;
      if (to === null) {
        problems.push(`upward import: ${file} -> ${target}${kind} (the public entry)`);
        continue;
      }
      const a = layerOf.get(from);
      const b = layerOf.get(to);
      if (a === undefined || b === undefined) continue;
      if (b.index > a.index)
        problems.push(`upward import: ${file} [${a.name}] -> ${target} [${b.name}]${kind}`);
      else if (b.index === a.index)
        problems.push(`sideways import: ${file} -> ${target}${kind} (both in layer ${a.name})`);
      if (to in SEALED && SEALED[to] !== target)
        problems.push(`sealed folder: ${file} -> ${target}${kind} (import ${SEALED[to]})`);
    }
  }

  // Circles: Tarjan's strongly connected components, each printed with its edges.
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const connect = (file) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file)) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file), index.get(to)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = new Set();
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.add(member);
    } while (member !== file);
    const self = graph.get(file).includes(file);
    if (component.size === 1 && !self) return;
    const edges = [...component].flatMap((f) =>
      graph
        .get(f)
        .filter((to) => component.has(to))
        .map((to) => `${f} -> ${to}`),
    );
    problems.push(
      `import circle of ${component.size} files:\n    ${[...new Set(edges)].sort().join("\n    ")}`,
    );
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return problems;
};

const main = () => {
  const args = process.argv.slice(2);
  const at = args.indexOf("--root");
  const root =
    at >= 0 ? resolve(args[at + 1]) : join(dirname(fileURLToPath(import.meta.url)), "..", "src");
  if (!existsSync(root)) {
    console.error(`check-layers: no such folder: ${root}`);
    process.exit(2);
  }
  const problems = checkLayers(root);
  if (problems.length === 0) {
    console.log(`check-layers: ${LAYERS.length} layers, no upward import, no circle`);
    return;
  }
  console.error(`check-layers: ${problems.length} problem(s) in ${root}`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main();
