// The request pipeline, classic face: a small books API with a Schema DTO, a guard, an
// interceptor, an exception filter, URI versioning and a cover upload.
import * as Schema from "effect/Schema";
import {
  type ArgumentsHost,
  Body,
  type CallHandler,
  type CanActivate,
  Catch,
  Controller,
  Delete,
  type ExceptionFilter,
  type ExecutionContext,
  Get,
  HttpCode,
  Injectable,
  Interceptor,
  Module,
  NotFoundError,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Res,
  StrataApp,
  type StrataResponse,
  UnauthorizedError,
  UploadedFile,
  UseFilters,
  UseGuards,
  UseInterceptors,
  Version,
  VersioningType,
} from "effect-strata";

/** What a client sends to create or replace a book. */
export class BookInput extends Schema.Class<BookInput>("BookInput")({
  title: Schema.Trim.pipe(Schema.nonEmptyString()),
  author: Schema.Trim.pipe(Schema.nonEmptyString()),
  year: Schema.Int.pipe(Schema.between(1450, 2100)),
}) {}

export interface Book {
  readonly id: number;
  readonly title: string;
  readonly author: string;
  readonly year: number;
  readonly cover?: { readonly mimetype: string; readonly size: number };
}

@Injectable()
export class BooksService {
  private readonly books = new Map<number, Book>([
    [1, { id: 1, title: "Dune", author: "Frank Herbert", year: 1965 }],
  ]);
  private readonly covers = new Map<number, { mimetype: string; bytes: Buffer }>();
  private nextId = 2;

  list(): ReadonlyArray<Book> {
    return [...this.books.values()];
  }

  find(id: number): Book {
    const book = this.books.get(id);
    if (book === undefined) throw new NotFoundError(`No book ${id}`);
    return book;
  }

  create(input: BookInput): Book {
    const book = { id: this.nextId++, ...input };
    this.books.set(book.id, book);
    return book;
  }

  replace(id: number, input: BookInput): Book {
    const book = { ...this.find(id), ...input };
    this.books.set(id, book);
    return book;
  }

  remove(id: number): void {
    this.find(id);
    this.books.delete(id);
    this.covers.delete(id);
  }

  setCover(id: number, cover: UploadedFile): Book {
    const book = { ...this.find(id), cover: { mimetype: cover.mimetype, size: cover.size } };
    this.books.set(id, book);
    this.covers.set(id, { mimetype: cover.mimetype, bytes: cover.buffer });
    return book;
  }

  cover(id: number): { mimetype: string; bytes: Buffer } {
    const cover = this.covers.get(id);
    if (cover === undefined) throw new NotFoundError(`Book ${id} has no cover`);
    return cover;
  }
}

/** The API keys of the editors allowed to change books. */
@Injectable()
export class Editors {
  private readonly keys = new Map([["editor-key", { id: 1, username: "ada", role: "editor" }]]);
  byKey(key: string | undefined) {
    return key === undefined ? undefined : this.keys.get(key);
  }
}

/** Lets editors through (`Authorization: Bearer <key>`) and tells the handler who they are. */
@Injectable()
export class EditorGuard implements CanActivate {
  constructor(private readonly editors: Editors) {}
  canActivate(context: ExecutionContext): boolean {
    const header = context.headers.authorization;
    if (header === undefined) throw new UnauthorizedError("Missing API key");
    const editor = this.editors.byKey(header.replace(/^Bearer /, ""));
    if (editor === undefined) return false;
    context.user = editor;
    return true;
  }
}

/** Times every request into an `X-Response-Time` header (installed app-wide). */
export class ResponseTime extends Interceptor {
  async intercept(context: ExecutionContext, next: CallHandler) {
    const started = performance.now();
    const result = await next();
    const elapsed = (performance.now() - started).toFixed(1);
    context.switchToHttp().getResponse().setHeader("x-response-time", `${elapsed}ms`);
    return result;
  }
}

/** Wraps v2 results in `{ data }`. */
export class Envelope extends Interceptor {
  async intercept(_context: ExecutionContext, next: CallHandler) {
    return { data: await next() };
  }
}

/** Answers a missing book with a problem-style body of its own. */
@Catch(NotFoundError)
export class BookNotFoundFilter implements ExceptionFilter<NotFoundError> {
  catch(exception: NotFoundError, host: ArgumentsHost) {
    const request = host.switchToHttp().getRequest();
    host.switchToHttp().getResponse().status(404).json({
      statusCode: 404,
      error: "book_not_found",
      message: exception.message,
      path: request.url,
    });
  }
}

@Controller({ path: "books", version: "1" })
@UseFilters(BookNotFoundFilter)
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @Get()
  list() {
    return this.books.list();
  }

  @Get(":id")
  find(@Param("id", ParseIntPipe) id: number) {
    return this.books.find(id);
  }

  @Post()
  @UseGuards(EditorGuard)
  create(@Body(BookInput) input: BookInput) {
    return this.books.create(input);
  }

  @Put(":id")
  @UseGuards(EditorGuard)
  replace(@Param("id", ParseIntPipe) id: number, @Body(BookInput) input: BookInput) {
    return this.books.replace(id, input);
  }

  @Delete(":id")
  @HttpCode(204)
  @UseGuards(EditorGuard)
  remove(@Param("id", ParseIntPipe) id: number) {
    this.books.remove(id);
  }

  @Post(":id/cover")
  @UseGuards(EditorGuard)
  uploadCover(@Param("id", ParseIntPipe) id: number, @UploadedFile("cover") cover?: UploadedFile) {
    if (cover === undefined) throw new NotFoundError("No cover field in the upload");
    return this.books.setCover(id, cover);
  }

  @Get(":id/cover")
  cover(@Param("id", ParseIntPipe) id: number, @Res() res: StrataResponse) {
    const cover = this.books.cover(id);
    res.setHeader("content-type", cover.mimetype);
    res.send(cover.bytes);
  }
}

/** Version 2 of the listing: the same data in an envelope, with a count. */
@Controller("books")
@Version("2")
@UseInterceptors(Envelope)
export class BooksV2Controller {
  constructor(private readonly books: BooksService) {}

  @Get()
  list() {
    const books = this.books.list();
    return { count: books.length, books };
  }
}

@Module({
  controllers: [BooksController, BooksV2Controller],
  providers: [BooksService, Editors, EditorGuard],
})
export class AppModule {}

/** The app, configured: URI versioning (`/v1/books`), response times on every route. */
export const createApp = (): StrataApp =>
  new StrataApp(AppModule, { uploads: { fileSize: 2 * 1024 * 1024, files: 1 } })
    .enableVersioning({ type: VersioningType.URI })
    .useGlobalInterceptors(new ResponseTime());
