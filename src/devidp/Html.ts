/**
 * HTML responses of the development identity provider: escaped text, a strict
 * Content-Security-Policy (no script, no external asset, the one inline style allowed by its
 * hash), no framing, no caching, no referrer.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { escapeHtml } from "../sanitize/escapeHtml.js";

/** The page style: the only inline content the policy allows (by hash). */
const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d1f23}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin:.2rem 0 .8rem}
.badge{display:inline-block;font-size:.8rem;background:#fff3cd;color:#664d03;border-radius:999px;padding:.1rem .7rem;margin:0}
ul{list-style:none;padding:0;margin:1.2rem 0}
li{margin:.5rem 0}
button{font:inherit;cursor:pointer}
.user{display:flex;align-items:center;gap:.8rem;width:100%;text-align:left;padding:.6rem .8rem;border:1px solid #d0d4da;border-radius:8px;background:#fff}
.user:hover,.user:focus-visible{border-color:#0b5cd5;outline:2px solid #0b5cd5}
.user img{border-radius:50%}
.email{display:block;font-size:.85rem;color:#555}
.cancel{background:none;border:none;color:#0b5cd5;text-decoration:underline;padding:0}
code{background:#eef0f3;border-radius:4px;padding:0 .3rem}
`;

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/**
 * A complete HTML page with the development identity provider's headers. `formTargets` are
 * the origins its forms may submit to and be redirected to (Chromium applies `form-action`
 * to the redirect after a submission).
 *
 * @since 0.1.0
 * @category html
 */
export const page = (options: {
  readonly title: string;
  readonly body: string;
  readonly status?: number;
  readonly formTargets?: ReadonlyArray<string>;
}): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${options.body}
</main>
</body>
</html>
`,
    {
      status: options.status ?? 200,
      contentType: "text/html; charset=utf-8",
      headers: {
        "content-security-policy": [
          "default-src 'none'",
          `style-src 'sha256-${STYLE_HASH}'`,
          "img-src 'self'",
          `form-action 'self'${(options.formTargets ?? []).map((origin) => ` ${origin}`).join("")}`,
          "frame-ancestors 'none'",
          "base-uri 'none'",
        ].join("; "),
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      },
    },
  );
