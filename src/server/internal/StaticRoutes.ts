import type * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";

type Route = HttpLayerRouter.Route<unknown, unknown>;

/** Characters that make a route path more than a literal (parameters, wildcards, regexps, escapes). */
const patternChar = /[:*(%?#]/;

/** An object without a prototype, as find-my-way makes a route's parameters and query. */
const Empty = function Empty() {} as unknown as new () => Record<string, never>;
Empty.prototype = Object.create(null);

/** A literal route found (a `FastRouter.FoundRoute`). */
interface StaticMatch {
  readonly handler: Route;
  readonly params: Readonly<Record<string, never>>;
  readonly searchParams: Readonly<Record<string, never>>;
}

/**
 * The routes whose path is a literal, by method and exact path, found without walking the
 * find-my-way tree: a request target spelled exactly as such a route's path (no query, no
 * escapes) is that route, as find-my-way would find it (a literal path wins over parameters
 * and wildcards, and a second route with the same path is refused when it is registered).
 * Any other spelling (a query, a trailing slash, another case) goes to the tree.
 */
export class StaticRoutes {
  private readonly byMethod = new Map<string, Map<string, Route>>();
  /**
   * `1` at the length of every literal path: a target of another length (most targets of
   * parameterised routes) is not one, and is passed on without hashing it for a `Map` lookup.
   */
  private lengths = new Uint8Array(0);

  /** Adds `route` (registered in the tree first, which refuses a duplicate) if its path is literal. */
  add(route: Route): void {
    if (patternChar.test(route.path)) return;
    let paths = this.byMethod.get(route.method);
    if (paths === undefined) {
      paths = new Map();
      this.byMethod.set(route.method, paths);
    }
    if (!paths.has(route.path)) paths.set(route.path, route);
    const length = route.path.length;
    if (length >= this.lengths.length) {
      const grown = new Uint8Array(length + 1);
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[length] = 1;
  }

  /** The route for `method` and exactly `url`, with no parameters and an empty query, if any. */
  find(method: string, url: string): StaticMatch | undefined {
    if (url.length >= this.lengths.length || this.lengths[url.length] === 0) return undefined;
    const route = this.byMethod.get(method)?.get(url);
    return route === undefined
      ? undefined
      : { handler: route, params: new Empty(), searchParams: new Empty() };
  }
}
