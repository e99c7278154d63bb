/**
 * vcc entry point. `vcc serve` takes a fast path that loads only the bridge server; every other
 * subcommand loads the CLI.
 *
 * @module
 */
if (Deno.args[0] === "serve") {
  const { serve } = await import("./src/bridge/server.ts");
  Deno.exit(await serve(Deno.args.slice(1)));
} else {
  const { main } = await import("./src/cli/mod.ts");
  Deno.exit(await main(Deno.args));
}
