import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  sanitizeEmail,
  sanitizeHtml,
  sanitizeObject,
  sanitizeSql,
  sanitizeString,
  sanitizeUrl,
} from "../../src/index.js";

describe("sanitizeHtml", () => {
  it("removes scripts, styles, event handlers and dangerous URLs, keeping allowed markup", () => {
    expect(
      sanitizeHtml(
        '<p onclick="steal()">Hi <b>there</b><script>alert(1)</script><style>body{}</style></p>',
      ),
    ).toBe("<p>Hi <b>there</b></p>");
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizeHtml('<a href="JaVaScRiPt:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizeHtml('<a href="https://example.com" target="_blank">x</a>')).toBe(
      '<a href="https://example.com" target="_blank">x</a>',
    );
    expect(sanitizeHtml('<img src=x onerror="alert(1)">')).toBe("");
    expect(sanitizeHtml("<iframe src='https://evil.example'></iframe>ok")).toBe("ok");
    expect(sanitizeHtml("<svg><script>alert(1)</script></svg>")).toBe("");
    expect(sanitizeHtml("<div>text <custom>kept</custom></div>")).toBe("<div>text kept</div>");
    expect(sanitizeHtml("1 < 2 & 3 > 2")).toBe("1 &lt; 2 &amp; 3 &gt; 2");
  });
});

describe("escapeHtml", () => {
  it("escapes the characters that matter in HTML text and quoted attributes", () => {
    expect(escapeHtml(`<script>alert("x")</script>`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;&#x2F;script&gt;",
    );
    expect(escapeHtml(`' & \` \\`)).toBe("&#x27; &amp; &#96; &#x5C;");
    expect(escapeHtml("plain text é")).toBe("plain text é");
  });
});

describe("sanitizeString", () => {
  it("gives plain text: no tags, no control or bidi-override characters, trimmed, NFC", () => {
    expect(sanitizeString("  <b>Ada</b> <script>alert(1)</script>Lovelace  ")).toBe("Ada Lovelace");
    expect(sanitizeString("&lt;script&gt;alert(1)&lt;/script&gt;")).toBe("scriptalert(1)/script");
    expect(sanitizeString("Tom &amp; Jerry \"quoted\" 'single'")).toBe(
      "Tom & Jerry \"quoted\" 'single'",
    );
    expect(sanitizeString("a\u0000b\u0007c\u007fd\u0085e")).toBe("abcde");
    expect(sanitizeString("line 1\nline 2\tend")).toBe("line 1\nline 2\tend");
    expect(sanitizeString("admin\u202Egnp.exe\uFEFF")).toBe("admingnp.exe");
    expect(sanitizeString("e\u0301")).toBe("\u00e9");
    expect(sanitizeString("👩‍💻")).toBe("👩‍💻");
  });
});

describe("sanitizeUrl", () => {
  it("keeps http(s), mailto and same-origin paths", () => {
    expect(sanitizeUrl("https://example.com/a?b=1#c")).toBe("https://example.com/a?b=1#c");
    expect(sanitizeUrl("  HTTP://Example.COM  ")).toBe("http://example.com/");
    expect(sanitizeUrl("mailto:ada@example.com")).toBe("mailto:ada@example.com");
    expect(sanitizeUrl("/account/settings?tab=1")).toBe("/account/settings?tab=1");
    // Returned normalized, so a browser cannot read it differently.
    expect(sanitizeUrl("https:example.com")).toBe("https://example.com/");
  });

  it("refuses javascript:, data: and other schemes, protocol-relative URLs and obfuscations", () => {
    for (const hostile of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u0001javascript:alert(1)",
      "javascript\u200b:alert(1)",
      "&#106;avascript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "//evil.example/path",
      "/\\evil.example",
      "\\\\evil.example",
      "relative/path",
      "",
    ]) {
      expect(sanitizeUrl(hostile), hostile).toBe("");
    }
  });
});

describe("sanitizeEmail", () => {
  it("trims and validates, lower-casing the domain only", () => {
    expect(sanitizeEmail("  Ada.Lovelace+notes@Example.COM ")).toBe(
      "Ada.Lovelace+notes@example.com",
    );
    for (const invalid of [
      "not-an-email",
      "ada@",
      "@example.com",
      "Ada <ada@example.com>",
      "ada@example.com\r\nBcc: victim@example.com",
      "ada@[127.0.0.1]",
      "<script>@example.com",
      `${"a".repeat(65)}@example.com`,
    ]) {
      expect(sanitizeEmail(invalid), invalid).toBe("");
    }
  });
});

describe("sanitizeSql", () => {
  it("doubles single quotes and drops NUL for a standard SQL string literal", () => {
    expect(sanitizeSql("O'Brien")).toBe("O''Brien");
    expect(sanitizeSql("x'; DROP TABLE users; --")).toBe("x''; DROP TABLE users; --");
    expect(`'${sanitizeSql("' OR '1'='1")}'`).toBe("''' OR ''1''=''1'");
    expect(sanitizeSql("a\u0000b")).toBe("ab");
    expect(sanitizeSql("100% _done_")).toBe("100% _done_");
  });
});

describe("sanitizeObject", () => {
  it("drops __proto__, constructor and prototype keys at every depth: no prototype pollution", () => {
    const hostile = JSON.parse(
      '{"name":"<b>x</b>","__proto__":{"polluted":true},"nested":{"constructor":{"prototype":{"polluted":true}},"list":[{"__proto__":{"polluted":true},"ok":1}]},"prototype":1}',
    ) as Record<string, unknown>;
    const clean = sanitizeObject(hostile);
    expect(clean).toEqual({ name: "x", nested: { list: [{ ok: 1 }] } });
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.hasOwn(clean, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Merging the result into a plain object pollutes nothing either.
    const target: Record<string, unknown> = {};
    Object.assign(target, clean);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("sanitizes strings deeply and keeps other values, dropping functions, cycles and deep nesting", () => {
    const date = new Date(0);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 100; i++) deep = { deep };
    const input: Record<string, unknown> = {
      text: " <script>alert(1)</script>hi ",
      n: 3,
      ok: false,
      none: null,
      when: date,
      fn: () => 1,
      list: ["<i>a</i>", () => 2, undefined],
      cyclic,
      deep,
    };
    const clean = sanitizeObject(input);
    expect(clean.text).toBe("hi");
    expect(clean.n).toBe(3);
    expect(clean.ok).toBe(false);
    expect(clean.none).toBeNull();
    expect(clean.when).toBe(date);
    expect("fn" in clean).toBe(false);
    expect(clean.list).toEqual(["a", null, null]);
    expect(clean.cyclic).toEqual({ a: 1 });
    expect(JSON.stringify(clean.deep)).not.toContain("leaf");
    expect(input.text).toBe(" <script>alert(1)</script>hi ");
  });
});
