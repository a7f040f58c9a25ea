// The rows that run servers/node-http.mjs, the same in run.mjs and instructions.mjs.
export const NODE_HTTP_ROWS = [
  { name: "node-http", file: "servers/node-http.mjs" },
  // node-http with `/hello` serialized per request (equal work with a framework's handler).
  { name: "node-http-json", file: "servers/node-http.mjs", env: { NODE_HTTP_JSON: "1" } },
  // node-http-json with each request on one Effect fiber of Effect 3 or of Effect 4 (the next
  // major): what the fiber costs by itself.
  {
    name: "effect3-fiber",
    file: "servers/node-http.mjs",
    env: { NODE_HTTP_JSON: "1", NODE_HTTP_FIBER: "effect3" },
  },
  {
    name: "effect4-fiber",
    file: "servers/node-http.mjs",
    env: { NODE_HTTP_JSON: "1", NODE_HTTP_FIBER: "effect4" },
  },
];
