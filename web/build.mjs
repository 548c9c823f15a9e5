// Bundles the front-end into the Python package (judge/web/static/), so users need no Node.
// Reproducible: pinned versions from package-lock.json (`npm ci`), no timestamps, no hashes in
// names, no source maps; `bash check-bundle.sh` rebuilds and compares with what is committed.
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? path.join(here, "..", "judge", "web", "static");

const common = { bundle: true, minify: true, legalComments: "eof", logLevel: "warning", target: ["es2020"] };

await esbuild.build({ ...common, entryPoints: [path.join(here, "src", "main.js")], outfile: path.join(out, "app.js"),
  format: "iife" });
// KaTeX's stylesheet lists woff2, woff and ttf for each font; every browser this page targets reads
// woff2, so only those are shipped and the others stay unresolved references never fetched.
await esbuild.build({ ...common, entryPoints: [path.join(here, "src", "style.css")], outfile: path.join(out, "app.css"),
  loader: { ".woff2": "file" }, external: ["*.woff", "*.ttf"], assetNames: "fonts/[name]" });
