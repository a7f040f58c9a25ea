// Baseline: raw node:http with hand-rolled route matching.
//
// `NODE_HTTP_FIBER=effect3|effect4` (the effect3-fiber and effect4-fiber rows): every request
// runs the same handler inside one Effect fiber (`Effect.runFork(Effect.sync(...))`) of Effect 3
// (the root's `effect`) or Effect 4 (`effect4`, npm's `effect@4`): what a fiber a request costs
// on each major, with nothing of Strata's around it.
import http from "node:http";

class UsersService {
  find(id) {
    return { id, name: `user ${id}` };
  }
}
const users = new UsersService(); // the "injected" singleton

const INT = /^-?\d+$/;
const BAD_ID = JSON.stringify({
  statusCode: 400,
  message: "Validation failed (numeric string is expected)",
  error: "Bad Request",
});
const HELLO = JSON.stringify({ hello: "world" });
// `NODE_HTTP_JSON=1` (the node-http-json row): `/hello` serializes its object on every request,
// as a framework whose handler returns an object must, instead of sending `HELLO`, built once.
const helloBody =
  process.env.NODE_HTTP_JSON === "1" ? () => JSON.stringify({ hello: "world" }) : () => HELLO;

function send(res, status, body) {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

const handle = (req, res) => {
  const q = req.url.indexOf("?");
  const path = q === -1 ? req.url : req.url.slice(0, q);
  if (req.method === "GET") {
    if (path === "/hello") return send(res, 200, helloBody());
    if (path.startsWith("/users/")) {
      const raw = decodeURIComponent(path.slice(7));
      if (raw.length > 0 && !raw.includes("/")) {
        if (!INT.test(raw)) return send(res, 400, BAD_ID);
        return send(res, 200, JSON.stringify(users.find(Number.parseInt(raw, 10))));
      }
    }
  }
  send(res, 404, JSON.stringify({ statusCode: 404, message: "Not Found" }));
};

const listen = (listener) =>
  http.createServer(listener).listen(Number(process.env.PORT), "127.0.0.1");

const fiber = process.env.NODE_HTTP_FIBER;
if (fiber === undefined) listen(handle);
else if (fiber === "effect3" || fiber === "effect4")
  import(fiber === "effect3" ? "effect/Effect" : "effect4/Effect").then((Effect) =>
    listen((req, res) => Effect.runFork(Effect.sync(() => handle(req, res)))),
  );
else throw new Error(`NODE_HTTP_FIBER: effect3 or effect4, not ${fiber}`);
