import { isIP } from "node:net";

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, an IPv4 tail as two groups). */
const ipv6Groups = (address: string): Array<number> => {
  const zone = address.indexOf("%");
  let text = zone === -1 ? address : address.slice(0, zone);
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [a, b, c, d] = tail.split(".").map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const double = text.indexOf("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  if (double === -1) return parse(text);
  const head = parse(text.slice(0, double));
  const rest = parse(text.slice(double + 2));
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
};

/**
 * The rate-limit key of a client address: an IPv4 address as it is, an IPv4-mapped IPv6
 * address (`::ffff:1.2.3.4`) as its IPv4 address, any other IPv6 address as its `/prefix`
 * network (`2001:db8:0:0:0:0:0:0/64`), since one host usually holds a whole /64 (`false`: per
 * address). Anything else (`unknown`, a malformed forwarded entry) as it is.
 */
export const addressKey = (address: string, ipv6Prefix: number | false): string => {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  }
  if (ipv6Prefix === false) return groups.map((g) => g.toString(16)).join(":");
  const masked = groups.map((group, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - i * 16));
    return bits === 16 ? group : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${masked.map((g) => g.toString(16)).join(":")}/${ipv6Prefix}`;
};
