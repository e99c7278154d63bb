/**
 * The directory a projection names once as `…`: of the directories that hold at least half of the
 * session's absolute paths, the one whose naming shortens its lines the most. Sessions are
 * generated: files of a project in a deep package and in other folders, and a few elsewhere; the
 * test reckons what each directory would save from the files it generated.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";
import { callRows, type Row } from "../support/call_rows.ts";

const NOTE = /^\(… is (\/\S+)\)$/m;

/** Rows reading each of `files`, one call each. */
function reads(files: readonly string[]): Row[] {
  return [
    { role: "user", content: "Review the project.", _row_id: 1 },
    ...files.flatMap((path, index) =>
      callRows(2 + 2 * index, "read_file", { path }, { content: "1|x = 1" })
    ),
  ];
}

Deno.test("the root named is the directory holding half the paths whose naming saves the most", () => {
  const random = new SeededRandom(21);
  for (let round = 0; round < 60; round++) {
    const home = `/home/${random.pick(["dev", "maria", "ci"])}/${
      random.pick(["ledger", "acme-web", "shop"])
    }`;
    const deep = `${home}/${random.pick(["crates/core/src", "packages/ui/src/components", "src"])}`;
    const files = [
      ...Array.from({ length: random.range(1, 8) }, (_, index) => `${deep}/m${index}.rs`),
      ...Array.from({ length: random.range(0, 6) }, (_, index) => `${home}/docs/n${index}.md`),
      ...Array.from({ length: random.range(0, 3) }, (_, index) => `/etc/app/c${index}.conf`),
    ];
    const { body } = project(reads(files), { budgetTokens: 8000, sessionId: "s" });
    const root = NOTE.exec(body)?.[1];
    const held = (dir: string) => files.filter((file) => file.startsWith(`${dir}/`)).length;
    const saves = (dir: string) => held(dir) * (dir.length - 1);
    // Every directory of every file that holds at least half of them, and two of them.
    const candidates = [
      ...new Set(files.flatMap((file) => {
        const parts = file.split("/");
        return parts.slice(2).map((_, depth) => parts.slice(0, depth + 2).join("/"));
      })),
    ].filter((dir) => dir.length >= 8 && held(dir) >= Math.max(2, files.length / 2));
    const context = `${files.join(" ")}\n${body.split("\n").slice(0, 3).join("\n")}`;
    if (candidates.length === 0) {
      assert.equal(root, undefined, context);
      continue;
    }
    assert.ok(root !== undefined, context);
    assert.equal(saves(root), Math.max(...candidates.map(saves)), context);
    // Every file under it is shown from it.
    for (const file of files.filter((path) => path.startsWith(`${root}/`))) {
      assert.ok(body.includes(`…${file.slice(root.length)} — read`), `${file}\n${context}`);
    }
  }
});
