import Koa from "koa";

/**
 * The bare-Koa ceiling of `npm run bench`: a Koa app with one middleware answering 200 "ok" to
 * every request, run as a child process on PORT/HOST. It shows what Node + Koa alone can serve
 * on this machine with the same load generator.
 */
const app = new Koa();
app.use((ctx) => {
  ctx.body = "ok";
});
const port = Number(process.env.PORT ?? "0");
const host = process.env.HOST ?? "127.0.0.1";
const server = app.listen(port, host, () => {
  process.stdout.write(`bare-koa listening on ${host}:${port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
