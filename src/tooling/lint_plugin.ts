/**
 * Project lint rules: `src/core` stays pure (no Deno namespace, no `node:`/`npm:` imports) and no
 * module imports from `jsr:` or `https:`, which these machines cannot reach.
 *
 * @module
 */
const plugin: Deno.lint.Plugin = {
  name: "vcc",
  rules: {
    "pure-core": {
      create(context) {
        if (!context.filename.includes("/src/core/")) return {};
        return {
          ImportDeclaration(node) {
            const source = String(node.source.value);
            if (/^(node|npm|jsr|https?):/.test(source)) {
              context.report({
                node,
                message: "Core modules must not import IO or external modules",
              });
            }
          },
          'MemberExpression[object.name="Deno"]'(node: Deno.lint.MemberExpression) {
            context.report({ node, message: "Core modules must not use the Deno namespace" });
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
