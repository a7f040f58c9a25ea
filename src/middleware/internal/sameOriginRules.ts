const notAnOrigin = (origin: string) =>
  `Same-origin check: "${origin}" is not an origin (scheme://host[:port])`;

/** The origins parsed, or what is wrong with the first that is not one. */
export const parseOrigins = (origins: ReadonlyArray<string>): ReadonlySet<string> | string => {
  const trusted = new Set<string>();
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (url === undefined) return notAnOrigin(origin);
    const isOrigin =
      (url.protocol === "https:" || url.protocol === "http:") &&
      url.username === "" &&
      url.password === "" &&
      url.pathname === "/" &&
      url.search === "" &&
      url.hash === "" &&
      !origin.endsWith("?") &&
      !origin.endsWith("#");
    if (!isOrigin) return notAnOrigin(origin);
    trusted.add(url.origin);
  }
  return trusted;
};

/** Methods that change nothing: never refused by the guard and the middleware. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
