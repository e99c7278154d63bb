/**
 * vcc entry point. A well-formed `vcc serve` takes a fast path that loads only the bridge server;
 * everything else, `vcc serve --help` included, loads the CLI.
 *
 * @module
 */
if (Deno.args[0] === "serve") {
  const { readServeArgs, serve } = await import("./src/bridge/server.ts");
  const options = readServeArgs(Deno.args.slice(1));
  if (options !== undefined) Deno.exit(await serve(options));
}
const { main } = await import("./src/cli/mod.ts");
Deno.exit(await main(Deno.args));
