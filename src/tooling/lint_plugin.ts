/**
 * Project lint rules: the pure libraries (`src/core`, `src/anchors`) stay pure (no Deno namespace,
 * no `node:`/`npm:` imports); a module whose name starts with `_` is private to its folder (and
 * the folders below it), so only they, the tests and the benchmarks import it; and no module
 * imports from `jsr:` or `https:`, which these machines cannot reach.
 *
 * @module
 */
/** Folders whose modules compute without IO, so any host can run them. */
const PURE_FOLDERS = ["/src/core/", "/src/anchors/"];

const plugin: Deno.lint.Plugin = {
  name: "vcc",
  rules: {
    "pure-library": {
      create(context) {
        if (!PURE_FOLDERS.some((folder) => context.filename.includes(folder))) return {};
        return {
          ImportDeclaration(node) {
            const source = String(node.source.value);
            if (/^(node|npm|jsr|https?):/.test(source)) {
              context.report({
                node,
                message: "Pure library modules must not import IO or external modules",
              });
            }
          },
          'MemberExpression[object.name="Deno"]'(node: Deno.lint.MemberExpression) {
            context.report({
              node,
              message: "Pure library modules must not use the Deno namespace",
            });
          },
        };
      },
    },
    "private-module": {
      create(context) {
        const check = (node: Deno.lint.Node, source: unknown) => {
          if (typeof source !== "string" || !source.startsWith(".")) return;
          const problem = privateImportProblem(context.filename, source);
          if (problem) context.report({ node, message: problem });
        };
        return {
          ImportDeclaration: (node) => check(node, node.source.value),
          ExportNamedDeclaration: (node) => check(node, node.source?.value),
          ExportAllDeclaration: (node) => check(node, node.source.value),
          ImportExpression: (node) =>
            check(node, node.source.type === "Literal" ? node.source.value : undefined),
        };
      },
    },
    "reachable-imports": {
      create(context) {
        return {
          ImportDeclaration(node) {
            if (/^(jsr|https?):/.test(String(node.source.value))) {
              context.report({
                node,
                message: "Imports from jsr: or https: cannot be fetched here",
              });
            }
          },
        };
      },
    },
  },
};

/**
 * Why `importer` may not import `specifier`, or `undefined` when it may: a `_` module under `src/`
 * is imported only from its own folder or below, or from the checkout's `tests/` and `bench/`.
 */
export function privateImportProblem(importer: string, specifier: string): string | undefined {
  const target = new URL(specifier, `file://${importer}`).pathname;
  const slash = target.lastIndexOf("/");
  if (!target.slice(slash + 1).startsWith("_")) return undefined;
  const source = target.lastIndexOf("/src/");
  if (source < 0) return undefined;
  const fromRoot = importer.slice(target.slice(0, source + 1).length);
  if (importer.startsWith(target.slice(0, slash + 1))) return undefined;
  if (importer.startsWith(target.slice(0, source + 1)) && /^(tests|bench)\//.test(fromRoot)) {
    return undefined;
  }
  return `${specifier} is private to ${
    target.slice(source + 1, slash)
  }; import its folder's mod.ts ` +
    `or a module without the _ prefix`;
}

export default plugin;
