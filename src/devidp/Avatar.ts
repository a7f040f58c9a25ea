/**
 * Profile pictures of the test users, served by the development identity provider itself
 * (so no page ever loads an external asset): an SVG disc with the user's initials.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { escapeHtml } from "../sanitize/escapeHtml.js";
import type { DevUser } from "./DevUser.js";

/**
 * The SVG picture of `user`, with a colour derived from its key.
 *
 * @since 0.1.0
 * @category avatars
 */
export const avatar = (user: DevUser): HttpServerResponse.HttpServerResponse => {
  const hue = createHash("sha256").update(user.key).digest()[0] ?? 0;
  const initials = user.name
    .split(/\s+/)
    .map((word) => word[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return HttpServerResponse.text(
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${escapeHtml(user.name)}">
<circle cx="48" cy="48" r="48" fill="hsl(${Math.round((hue / 256) * 360)} 55% 45%)"/>
<text x="48" y="60" font-family="sans-serif" font-size="36" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text>
</svg>
`,
    {
      contentType: "image/svg+xml",
      headers: {
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
        "x-content-type-options": "nosniff",
        "cache-control": "public, max-age=3600",
        "cross-origin-resource-policy": "cross-origin",
      },
    },
  );
};

/** The URL of `user`'s picture on the server at `base`. @since 0.1.0 @category avatars */
export const pictureUrl = (base: string, user: DevUser): string =>
  `${base}/avatars/${encodeURIComponent(user.key)}.svg`;
