/** A file type told by its first bytes: `bytes` at `offset` (`undefined`: any byte). */
interface Signature {
  readonly mime: string;
  readonly offset: number;
  readonly bytes: ReadonlyArray<number | undefined>;
  /** A second run of bytes the type also needs (e.g. `WEBP` after `RIFF`). */
  readonly and?: { readonly offset: number; readonly bytes: ReadonlyArray<number> };
}

const ascii = (text: string): ReadonlyArray<number> => [...text].map((c) => c.charCodeAt(0));

const ftyp = (brand: string, mime: string): Signature => ({
  mime,
  offset: 4,
  bytes: ascii(`ftyp${brand}`),
});

/** The common types whose magic numbers the `file-type` package (NestJS's detector) also reads. */
const signatures: ReadonlyArray<Signature> = [
  { mime: "image/png", offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: "image/jpeg", offset: 0, bytes: [0xff, 0xd8, 0xff] },
  { mime: "image/gif", offset: 0, bytes: ascii("GIF87a") },
  { mime: "image/gif", offset: 0, bytes: ascii("GIF89a") },
  { mime: "image/webp", offset: 0, bytes: ascii("RIFF"), and: { offset: 8, bytes: ascii("WEBP") } },
  { mime: "audio/wav", offset: 0, bytes: ascii("RIFF"), and: { offset: 8, bytes: ascii("WAVE") } },
  { mime: "image/bmp", offset: 0, bytes: ascii("BM") },
  { mime: "image/tiff", offset: 0, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { mime: "image/tiff", offset: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { mime: "image/x-icon", offset: 0, bytes: [0x00, 0x00, 0x01, 0x00] },
  ftyp("avif", "image/avif"),
  ftyp("heic", "image/heic"),
  ftyp("isom", "video/mp4"),
  ftyp("iso2", "video/mp4"),
  ftyp("mp41", "video/mp4"),
  ftyp("mp42", "video/mp4"),
  ftyp("qt  ", "video/quicktime"),
  { mime: "video/webm", offset: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3] },
  { mime: "application/pdf", offset: 0, bytes: ascii("%PDF-") },
  { mime: "application/zip", offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { mime: "application/gzip", offset: 0, bytes: [0x1f, 0x8b, 0x08] },
  { mime: "application/x-7z-compressed", offset: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { mime: "audio/mpeg", offset: 0, bytes: ascii("ID3") },
  { mime: "audio/mpeg", offset: 0, bytes: [0xff, 0xfb] },
];

const matches = (
  buffer: Uint8Array,
  offset: number,
  bytes: ReadonlyArray<number | undefined>,
): boolean =>
  buffer.length >= offset + bytes.length &&
  bytes.every((byte, i) => byte === undefined || buffer[offset + i] === byte);

/**
 * The media type of a file from its magic numbers, for the common image, audio, video, document
 * and archive types; `undefined` when none matches (text formats such as SVG, CSV or JSON have
 * none, as with NestJS's detector).
 */
export const detectFileType = (buffer: Uint8Array): string | undefined =>
  signatures.find(
    (s) =>
      matches(buffer, s.offset, s.bytes) &&
      (s.and === undefined || matches(buffer, s.and.offset, s.and.bytes)),
  )?.mime;
