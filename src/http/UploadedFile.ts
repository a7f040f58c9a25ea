/**
 * A file received in a `multipart/form-data` request, held in memory.
 *
 * @since 0.1.0
 * @category request
 */
export interface UploadedFile {
  /** The form field the file was sent under. */
  readonly fieldname: string;
  /** The file name the client gave. */
  readonly filename: string;
  /** The same file name, under multer's (and so NestJS's) name for it. */
  readonly originalname: string;
  /** Its size in bytes. */
  readonly size: number;
  /** Its media type as the client declared it (`application/octet-stream` when none). */
  readonly mimetype: string;
  readonly buffer: Buffer;
}
