/**
 * Escapes text for the inside of a single-quoted SQL string literal in standard SQL
 * (PostgreSQL with `standard_conforming_strings`, the default since 9.1; SQLite; SQL Server;
 * Oracle): each `'` is doubled and NUL characters are removed; the quotes around the literal
 * are yours to write. It is NOT safe for MySQL or MariaDB with their default backslash
 * escapes, does not escape `LIKE` wildcards (`%`, `_`), and means nothing outside a quoted
 * literal (identifiers, numbers, `ORDER BY`).
 *
 * It is no substitute for parameterised queries: pass values as query parameters
 * (`$1`, `?`), always. This helper exists for the rare statement that cannot take parameters.
 *
 * @since 0.1.0
 * @category sanitize
 */
export const sanitizeSql = (input: string): string =>
  input.replaceAll("\u0000", "").replaceAll("'", "''");
