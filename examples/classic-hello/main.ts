import { StrataApp } from "effect-strata";
import { AppModule } from "./app.js";

const port = Number(process.env.PORT ?? 3000);
const app = new StrataApp(AppModule);
await app.listen(port);
console.log(`classic-hello listening on ${app.getUrl()} (try /hello and /users/1)`);
