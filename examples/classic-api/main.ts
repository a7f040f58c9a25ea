import { createApp } from "./app.js";

const port = Number(process.env.PORT ?? 3000);
const app = createApp();
await app.listen(port);
console.log(
  `classic-api listening on ${app.getUrl()} (try /v1/books, /v2/books; writes need "Authorization: Bearer editor-key")`,
);
