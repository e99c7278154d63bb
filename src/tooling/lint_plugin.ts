/**
 * Project lint rules: the pure libraries (`src/core`, `src/anchors`) stay pure (no Deno namespace,
 * no `node:`/`npm:` imports) and no module imports from `jsr:` or `https:`, which these machines
 * cannot reach.
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

export default plugin;
